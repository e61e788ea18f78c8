import { describe, expect, it } from 'vitest';
import { newId } from './newId.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newId', () => {
  it('gives version-4 UUIDs, each different, across many refills of its random pool', () => {
    const ids = Array.from({ length: 5_000 }, newId);
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('uses every hex digit in every random position (no stuck bits)', () => {
    const seen = Array.from({ length: 36 }, () => new Set<string>());
    for (let n = 0; n < 2_000; n++) {
      const id = newId();
      for (let i = 0; i < 36; i++) seen[i]!.add(id[i]!);
    }
    const sizes = seen.map((digits) => digits.size);
    for (const at of [8, 13, 18, 23]) expect(sizes[at]).toBe(1); // the dashes
    expect(sizes[14]).toBe(1); // the version digit
    expect(sizes[19]).toBe(4); // the variant digit: 8, 9, a, b
    const random = sizes.filter((_, at) => ![8, 13, 14, 18, 19, 23].includes(at));
    expect(random.every((size) => size === 16)).toBe(true);
  });
});
