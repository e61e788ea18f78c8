import { describe, expect, it } from 'vitest';
import { compactJson, firstLine, formatElapsed, formatUsage, oneLine, truncate } from './text.js';

describe('text helpers', () => {
  it('truncates with an ellipsis only when needed', () => {
    expect(truncate('abc', 3)).toBe('abc');
    expect(truncate('abcdef', 4)).toBe('abc…');
  });

  it('takes the first non-empty line and marks that more follow', () => {
    expect(firstLine('\n  one  \ntwo')).toBe('one …');
    expect(firstLine('only\n\n')).toBe('only');
    expect(firstLine('  ')).toBe('');
  });

  it('joins the non-empty lines of a text', () => {
    expect(oneLine('bad arguments:\n  - trend: invalid\n\n')).toBe(
      'bad arguments: - trend: invalid',
    );
  });

  it('formats JSON compactly, falling back for values JSON cannot hold', () => {
    expect(compactJson({ a: [1, 'b'] })).toBe('{"a":[1,"b"]}');
    expect(compactJson(undefined)).toBe('null');
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(compactJson(cyclic)).toBe('[object Object]');
  });

  it('formats elapsed time in seconds, then minutes', () => {
    expect(formatElapsed(1_234)).toBe('1.2 s');
    expect(formatElapsed(125_000)).toBe('2 min 5 s');
  });

  it('formats usage, or nothing when the model reported none', () => {
    expect(formatUsage({ inputTokens: 3, outputTokens: 4, totalTokens: 7 })).toBe(
      '3 in / 4 out tokens',
    );
    expect(formatUsage(undefined)).toBeUndefined();
  });

  it('shows the prompt-cache hit ratio when some input was read from a cache', () => {
    const usage = { inputTokens: 1200, outputTokens: 67, totalTokens: 1267 };
    expect(formatUsage({ ...usage, cachedInputTokens: 1020 })).toBe(
      '1200 in (85% cached) / 67 out tokens',
    );
    expect(formatUsage({ ...usage, cachedInputTokens: 0 })).toBe('1200 in / 67 out tokens');
  });
});
