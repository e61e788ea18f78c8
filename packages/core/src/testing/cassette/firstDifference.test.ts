import { describe, expect, it } from 'vitest';
import { firstDifference } from './firstDifference.js';

describe('firstDifference', () => {
  it('is undefined for equal JSON values, whatever the key order', () => {
    expect(firstDifference({ a: [1, { b: 'x' }], c: null }, { c: null, a: [1, { b: 'x' }] })).toBe(
      undefined,
    );
  });

  it('names the path of the first differing leaf, depth first', () => {
    expect(
      firstDifference(
        { messages: [{ content: 'a' }, { content: 'b' }], tools: [] },
        { messages: [{ content: 'a' }, { content: 'c' }], tools: [1] },
      ),
    ).toEqual({ path: 'messages[1].content', expected: 'b', actual: 'c' });
  });

  it('reports an extra array item, an added key and a quoted odd key', () => {
    expect(firstDifference([1], [1, 2])).toEqual({ path: '[1]', expected: undefined, actual: 2 });
    expect(firstDifference({ a: 1 }, { a: 1, b: 2 })).toEqual({
      path: 'b',
      expected: undefined,
      actual: 2,
    });
    expect(firstDifference({ 'top-p': 1 }, { 'top-p': 2 })?.path).toBe('["top-p"]');
  });

  it('reports a change of type at the place it happens', () => {
    expect(firstDifference({ a: 'x' }, { a: ['x'] })).toEqual({
      path: 'a',
      expected: 'x',
      actual: ['x'],
    });
  });
});
