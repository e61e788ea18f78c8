import { describe, expect, it } from 'vitest';
import { stableStringify } from './stableStringify.js';

describe('stableStringify', () => {
  it('gives equal strings for objects that differ only in key order, at any depth', () => {
    expect(stableStringify({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
      stableStringify({ a: { c: null, d: [1, { x: 1, y: 2 }] }, b: 1 }),
    );
  });

  it('writes the prefix first and stays valid JSON after it', () => {
    const key = stableStringify({ b: [1, 'x'], a: true }, 'tool\u0000');
    expect(key).toBe('tool\u0000{"a":true,"b":[1,"x"]}');
    expect(JSON.parse(key.slice('tool\u0000'.length))).toEqual({ a: true, b: [1, 'x'] });
  });

  it('tells different values apart', () => {
    expect(stableStringify({ a: '1' })).not.toBe(stableStringify({ a: 1 }));
    expect(stableStringify([1, 2])).not.toBe(stableStringify([2, 1]));
  });
});
