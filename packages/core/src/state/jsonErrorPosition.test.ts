import { describe, expect, it } from 'vitest';
import { jsonErrorPosition } from './jsonErrorPosition.js';

describe('jsonErrorPosition', () => {
  it('returns undefined for valid JSON', () => {
    for (const text of [
      '{}',
      ' [1, -2.5e+3, "a\\n\\u00e9", true, false, null, {"k": [] }] ',
      '"x"',
      '0',
    ]) {
      expect(() => JSON.parse(text)).not.toThrow();
      expect(jsonErrorPosition(text)).toBeUndefined();
    }
  });

  it.each([
    ['{\n  "a": 1,\n  "b": x\n}', 3, 8],
    ['{\n  "a": 1,\n}', 3, 1],
    ['{"a": 1', 1, 8],
    ['', 1, 1],
    ['{"a": 01}', 1, 8],
    ['{"a": "tab\there"}', 1, 11],
    ['{"a": "\\x"}', 1, 9],
    ['[1, 2] 3', 1, 8],
    ['{"a" 1}', 1, 6],
    ['[tru]', 1, 2],
  ])('locates the first error in %j at line %i, column %i', (text, line, column) => {
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(jsonErrorPosition(text)).toMatchObject({ line, column });
  });
});
