import { describe, expect, it } from 'vitest';
import {
  MAX_TOOL_ARGUMENT_CHARS,
  MAX_TOOL_ARGUMENT_DEPTH,
  parseToolArguments,
} from './parseToolArguments.js';

const nested = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('parseToolArguments', () => {
  it('parses JSON text and reads empty text as {}', () => {
    expect(parseToolArguments('f', '{"a":[1,{"b":"]"}]}')).toEqual({
      ok: true,
      value: { a: [1, { b: ']' }] },
    });
    expect(parseToolArguments('f', '  ')).toEqual({ ok: true, value: {} });
  });

  it('accepts nesting up to the depth limit and refuses one level more without parsing', () => {
    expect(parseToolArguments('f', nested(MAX_TOOL_ARGUMENT_DEPTH)).ok).toBe(true);
    const refused = parseToolArguments('f', nested(MAX_TOOL_ARGUMENT_DEPTH + 1));
    expect(refused).toEqual({ ok: false, message: expect.stringMatching(/deeper than 64/) });
    expect(parseToolArguments('f', `${'{"a":'.repeat(100_000)}1`).ok).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ s: `\\"${'['.repeat(200)}` });
    expect(parseToolArguments('f', text).ok).toBe(true);
  });

  it('refuses text longer than the size limit, naming the limit', () => {
    const text = JSON.stringify({ s: 'x'.repeat(MAX_TOOL_ARGUMENT_CHARS) });
    const refused = parseToolArguments('f', text);
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.message).toMatch(/Tool "f".*262144 characters/);
  });

  it('names invalid JSON', () => {
    expect(parseToolArguments('f', '{oops')).toEqual({
      ok: false,
      message: expect.stringMatching(/not valid JSON/),
    });
  });
});
