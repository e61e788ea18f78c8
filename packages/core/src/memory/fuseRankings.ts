import { InvalidArgumentError } from '../errors.js';
import type { Embedder } from './embedder.js';

/** The constant of reciprocal rank fusion: how much the very top ranks outweigh the rest. */
export const RRF_K = 60;

/**
 * Fuses rankings (each a list of ids, best first) by reciprocal rank fusion: an id scores
 * Σ 1 / (RRF_K + rank) over the rankings that hold it (rank 1 first). Scales of the
 * rankings' own scores (BM25, cosine) never need to agree. Returns ids with their fused
 * score, best first; ties keep the order of first appearance.
 */
export function fuseRankings(
  rankings: readonly (readonly string[])[],
): { id: string; score: number }[] {
  const scores = new Map<string, number>();
  for (const ranking of rankings) {
    ranking.forEach((id, index) => {
      scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + index + 1));
    });
  }
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}

/** The cosine similarity of two vectors of one length (0 when either is all zeros). */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * Embeds `texts` with `embedder` and checks what it returned: one vector per text, each of
 * `embedder.dimensions` finite numbers. Throws `InvalidArgumentError` naming the embedder.
 */
export async function embedChecked(
  embedder: Embedder,
  texts: readonly string[],
  signal: AbortSignal | undefined,
): Promise<number[][]> {
  const vectors = await embedder.embed(texts, signal ? { signal } : {});
  const ok =
    Array.isArray(vectors) &&
    vectors.length === texts.length &&
    vectors.every(
      (v) =>
        Array.isArray(v) && v.length === embedder.dimensions && v.every((x) => Number.isFinite(x)),
    );
  if (!ok) {
    throw new InvalidArgumentError(
      `Embedder "${embedder.name}" returned no valid vectors for ${texts.length} text(s): expected ${texts.length} arrays of ${embedder.dimensions} finite numbers.`,
    );
  }
  return vectors;
}
