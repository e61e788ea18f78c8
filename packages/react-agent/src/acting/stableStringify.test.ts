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

  it('writes a value already in key order as JSON.stringify does, and any other value sorted', () => {
    const sorted = { a: [1, { b: 'x', c: null }], d: true, e: -0 };
    expect(stableStringify(sorted, 'p:')).toBe(`p:${JSON.stringify(sorted)}`);
    // Integer-like keys come first in property order but not in sorted order.
    expect(stableStringify({ 9: 'a', 10: 'b' })).toBe('{"10":"b","9":"a"}');
    expect(stableStringify({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
    expect(stableStringify({ a: { d: 1, c: 2 } })).toBe('{"a":{"c":2,"d":1}}');
  });

  it('writes what JSON.stringify would drop or change, as before', () => {
    expect(stableStringify({ a: undefined } as never)).toBe('{"a":undefined}');
    expect(stableStringify([1, undefined] as never)).toBe('[1,undefined]');
    expect(stableStringify(undefined)).toBe('undefined');
    expect(stableStringify({ a: Number.NaN })).toBe('{"a":null}');
    expect(stableStringify({ a: new Date(0) } as never)).toBe('{"a":{}}');
  });
});
