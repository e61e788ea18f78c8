import { cosineSimilarity, type ScoredMemoryItem } from '@rxagent/core';
import type { PostgresConnection } from '../connection/postgresConnection.js';
import { ITEM_COLUMNS, type ItemRow, itemOf } from './itemRow.js';
import type { Where } from './searchSql.js';

/** What a vector search looks for: the query's vector, among one embedder's, at most `limit`. */
export interface VectorQuery {
  readonly vector: readonly number[];
  /** The embedder's identity in the rows (`name:dimensions`). */
  readonly embedder: string;
  readonly limit: number;
}

/** Whether the database has the `vector` extension (pgvector). Internal. */
export async function hasPgvector(db: PostgresConnection): Promise<boolean> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'vector'`,
    [],
    'looking for pgvector',
  );
  return (rows[0]?.n ?? 0) > 0;
}

/**
 * The items `where` selects most similar to the query (cosine > 0), best first, scored in
 * this process: every vector of the selection is read. The path without pgvector. Internal.
 */
export async function scanVectors(
  db: PostgresConnection,
  table: string,
  where: Where,
  query: VectorQuery,
): Promise<ScoredMemoryItem[]> {
  const { rows } = await db.query<ItemRow & { embedding: number[] | null }>(
    `SELECT ${ITEM_COLUMNS}, embedding FROM ${table}
     WHERE ${where.sql} AND embedder = $${where.values.length + 1}`,
    [...where.values, query.embedder],
    'scanning vectors',
  );
  return rows
    .map((row) => ({
      row,
      score: row.embedding ? cosineSimilarity(query.vector, row.embedding) : 0,
    }))
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, query.limit)
    .map((hit) => ({ ...itemOf(hit.row, table), score: hit.score }));
}

/**
 * The same, computed by pgvector in the database (the stored `real[]` cast to `vector`,
 * cosine distance `<=>`), so the vectors never travel. Not exercised by this package's tests,
 * whose PostgreSQL (Debian's) has no pgvector: `scanVectors` is the tested path. Internal.
 */
export async function pgvectorHits(
  db: PostgresConnection,
  table: string,
  where: Where,
  query: VectorQuery,
): Promise<ScoredMemoryItem[]> {
  const n = where.values.length;
  const { rows } = await db.query<ItemRow & { score: number }>(
    `SELECT * FROM (
       SELECT ${ITEM_COLUMNS}, 1 - (embedding::vector <=> $${n + 1}::vector) AS score
       FROM ${table} WHERE ${where.sql} AND embedder = $${n + 2} AND embedding IS NOT NULL
     ) AS hits WHERE score > 0 ORDER BY score DESC LIMIT $${n + 3}`,
    [...where.values, `[${query.vector.join(',')}]`, query.embedder, query.limit],
    'searching vectors (pgvector)',
  );
  return rows.map((row) => ({ ...itemOf(row, table), score: Number(row.score) }));
}
