import type { Embedder, MemoryStore, Namespace, ScoredMemoryItem } from '@rxagent/core';

/** Reciprocal rank fusion's usual constant: ranks below ~60 weigh about the same. */
const RRF_K = 60;

/**
 * Recall with the memory's own embedder: the keyword hits and every fact's stored vector
 * (saved with the fact, so no text is embedded twice) ranked by cosine similarity to the
 * query's one embedding, fused by reciprocal rank. The keyword search and the listing are
 * sent together.
 */
export async function vectorRecall(
  store: MemoryStore,
  embedder: Embedder,
  where: Namespace,
  query: string,
  limit: number,
  signal: AbortSignal | undefined,
): Promise<ScoredMemoryItem[]> {
  const options =
    signal === undefined ? { query, limit: limit * 4 } : { query, limit: limit * 4, signal };
  const [keyword, all, [queryVector]] = await Promise.all([
    store.search(where, options),
    store.list(where),
    embedder.embed([query], signal === undefined ? {} : { signal }),
  ]);
  const scores = new Map<string, { item: ScoredMemoryItem | undefined; score: number }>();
  const bump = (key: string, rank: number, item?: ScoredMemoryItem): void => {
    const entry = scores.get(key) ?? { item: undefined, score: 0 };
    entry.score += 1 / (RRF_K + rank + 1);
    entry.item ??= item;
    scores.set(key, entry);
  };
  for (const [rank, item] of keyword.entries()) bump(item.key, rank, item);
  const byVector = all
    .map((item) => ({ item, similarity: cosine(queryVector ?? [], item.value['vector']) }))
    .filter((entry) => entry.similarity > 0)
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, limit * 4);
  for (const [rank, { item }] of byVector.entries()) bump(item.key, rank, { ...item, score: 0 });
  return [...scores.values()]
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map(({ item, score }) => ({ ...item!, score }));
}

function cosine(a: readonly number[], b: unknown): number {
  if (!Array.isArray(b) || b.length !== a.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
