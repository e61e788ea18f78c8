import { describe, expect, it } from 'vitest';
import { HashEmbedder } from '../src/hashEmbedder.js';

const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

describe('HashEmbedder', () => {
  it('is deterministic, unit-length and `dimensions` long', async () => {
    const embedder = new HashEmbedder({ dimensions: 64 });
    const [a, b] = await embedder.embed(['Alice likes green tea', 'Alice likes green tea']);
    expect(a).toHaveLength(64);
    expect(a).toEqual(b);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 6);
    expect(embedder.name).toBe('hash-64');
    expect(new HashEmbedder().dimensions).toBe(256);
  });

  it('scores texts sharing words and word parts closer than unrelated ones', async () => {
    const embedder = new HashEmbedder();
    const [fact, paraphrase, other] = await embedder.embed([
      'Alice is allergic to peanuts',
      'what nut allergies does alice have',
      'The meeting moved to Thursday afternoon',
    ]);
    expect(cosine(fact!, paraphrase!)).toBeGreaterThan(cosine(fact!, other!) + 0.1);
  });

  it('embeds a text without letters as the zero vector, and rejects bad dimensions', async () => {
    const [zero] = await new HashEmbedder({ dimensions: 8 }).embed(['!!! ...']);
    expect(zero).toEqual(new Array(8).fill(0));
    expect(() => new HashEmbedder({ dimensions: 0 })).toThrow(/dimensions must be an integer/);
    expect(() => new HashEmbedder({ dimensions: 1.5 })).toThrow(/dimensions/);
  });
});
