import { describe, expect, it } from 'vitest';
import { SeenCalls } from './seenCalls.js';

describe('SeenCalls', () => {
  it('keeps, replaces and forgets calls by key, as a Map would', () => {
    const seen = new SeenCalls();
    expect(seen.size).toBe(0);
    expect(seen.get('a')).toBeUndefined();
    seen.set('a', { id: 'call_1' }).set('b', { id: 'call_2', result: 'two' });
    expect(seen.get('a')).toEqual({ id: 'call_1' });
    expect(seen.get('b')).toEqual({ id: 'call_2', result: 'two' });
    seen.set('a', { id: 'call_3', result: 'three' });
    expect(seen.size).toBe(2);
    expect(seen.get('a')).toEqual({ id: 'call_3', result: 'three' });
    expect(seen.delete('a')).toBe(true);
    expect(seen.delete('a')).toBe(false);
    expect(seen.get('a')).toBeUndefined();
    expect(seen.get('b')).toEqual({ id: 'call_2', result: 'two' });
    expect(seen.delete('b')).toBe(true);
    expect(seen.size).toBe(0);
  });

  it('answers the same past sixteen entries, when they have moved into a Map', () => {
    const seen = new SeenCalls();
    const reference = new Map<string, { id: string; result?: string }>();
    for (let i = 0; i < 40; i++) {
      const call = i % 3 === 0 ? { id: `call_${i}` } : { id: `call_${i}`, result: `r${i}` };
      seen.set(`k${i}`, call);
      reference.set(`k${i}`, call);
      if (i % 5 === 4) {
        seen.delete(`k${i - 2}`);
        reference.delete(`k${i - 2}`);
      }
      if (i % 7 === 6) {
        seen.set(`k${i - 1}`, { id: 'again' });
        reference.set(`k${i - 1}`, { id: 'again' });
      }
      expect(seen.size).toBe(reference.size);
      for (let k = 0; k <= i + 1; k++) expect(seen.get(`k${k}`)).toEqual(reference.get(`k${k}`));
    }
  });
});
