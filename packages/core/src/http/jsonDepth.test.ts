import { describe, expect, it } from 'vitest';
import { exceedsJsonDepth } from './jsonDepth.js';

describe('exceedsJsonDepth', () => {
  it('counts nested arrays and objects, the outermost being level 1', () => {
    expect(exceedsJsonDepth('{"a":[{"b":1}]}', 3)).toBe(false);
    expect(exceedsJsonDepth('{"a":[{"b":[]}]}', 3)).toBe(true);
    expect(exceedsJsonDepth('"text"', 0)).toBe(false);
    expect(exceedsJsonDepth('[]', 0)).toBe(true);
  });

  it('counts depth, not the number of siblings', () => {
    expect(exceedsJsonDepth(JSON.stringify(Array.from({ length: 1000 }, () => [[1]])), 3)).toBe(
      false,
    );
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(exceedsJsonDepth(JSON.stringify({ a: '[[[[{{{{', b: 'say \\"[[[[\\"' }), 1)).toBe(false);
    expect(exceedsJsonDepth(JSON.stringify(['"', ['x']]), 1)).toBe(true);
  });

  it('scans a text nested 150,000 levels deep without recursing', () => {
    const deep = `${'{"a":'.repeat(150_000)}1${'}'.repeat(150_000)}`;
    expect(exceedsJsonDepth(deep, 64)).toBe(true);
    expect(exceedsJsonDepth(deep, 150_000)).toBe(false);
  });
});
