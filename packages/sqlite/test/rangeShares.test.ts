import { describe, expect, it } from 'vitest';
import { RangeShares } from '../src/store/rangeShares.js';

describe('RangeShares', () => {
  it('counts a range once, reuses its share for 256 searches, then counts it again', () => {
    const shares = new RangeShares();
    let counts = 0;
    const count = (inRange: number) => () => {
      counts++;
      return { inRange, total: 100 };
    };
    expect(shares.share('a/', count(10))).toBe(0.1);
    for (let i = 0; i < 256; i++) expect(shares.share('a/', count(90))).toBe(0.1);
    expect(counts).toBe(1);
    expect(shares.share('a/', count(90))).toBe(0.9);
    expect(counts).toBe(2);
    expect(shares.share('b/', count(50))).toBe(0.5);
    expect(counts).toBe(3);
  });

  it('takes an empty table as wholly in range', () => {
    expect(new RangeShares().share('a/', () => ({ inRange: 0, total: 0 }))).toBe(1);
  });
});
