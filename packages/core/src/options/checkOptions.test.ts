import { describe, expect, it } from 'vitest';
import { checkOptions, suggestOption } from './checkOptions.js';

describe('checkOptions', () => {
  it('accepts an object whose keys are all known', () => {
    expect(() =>
      checkOptions({ model: 'x', baseURL: 'y' }, ['model', 'baseURL'], 'M'),
    ).not.toThrow();
  });

  it('throws a TypeError naming the unknown key, the owner and the right name', () => {
    expect(() =>
      checkOptions({ baseUrl: 'http://h' }, ['model', 'baseURL'], 'OpenAIChatModel'),
    ).toThrow(
      new TypeError(
        'OpenAIChatModel: unknown option "baseUrl" (did you mean "baseURL"?). Known options: model, baseURL.',
      ),
    );
  });

  it('checks keys whose value is undefined', () => {
    expect(() => checkOptions({ tools: undefined }, ['toolkit'], 'ReActAgent')).toThrow(
      /unknown option "tools" \(did you mean "toolkit"\?\)/,
    );
  });

  it('names no suggestion when nothing is close', () => {
    expect(() => checkOptions({ zzz: 1 }, ['model'], 'M')).toThrow(/unknown option "zzz"\. Known/);
  });

  it('ignores a non-object', () => {
    expect(() => checkOptions(undefined, ['a'], 'M')).not.toThrow();
    expect(() => checkOptions(null, ['a'], 'M')).not.toThrow();
  });
});

describe('suggestOption', () => {
  it('maps the common mistakes when the right name is known', () => {
    expect(suggestOption('instructions', ['sysPrompt', 'model'])).toBe('sysPrompt');
    expect(suggestOption('maxIterations', ['maxIters'])).toBe('maxIters');
    expect(suggestOption('tools', ['toolkit'])).toBe('toolkit');
  });

  it('suggests no mistake target that is not a known key', () => {
    expect(suggestOption('tools', ['model'])).toBeUndefined();
  });

  it('finds case and underscore variants and near misspellings', () => {
    expect(suggestOption('max_tool_failures', ['maxToolFailures'])).toBe('maxToolFailures');
    expect(suggestOption('sysPromt', ['sysPrompt', 'model'])).toBe('sysPrompt');
    expect(suggestOption('hooks', ['hook', 'name'])).toBe('hook');
  });
});
