import type { Where } from './searchSql.js';

/** The columns a put writes, bound as `$1` … `$9` in this order (see `putSql`). */
const COLUMNS = 'namespace, key, value, doc, text_hash, tsv, doc_len, embedder, embedding';

/**
 * The one statement of a put: an upsert that bumps the version (no `expectedVersion`), an
 * insert that does nothing when the key exists (`0`), or an update only at the expected
 * version — a compare-and-set in SQL, never read-then-write. It returns the new version, or
 * no row when the compare failed. `row` holds the nine columns' values. Internal.
 */
export function putSql(
  table: string,
  row: readonly unknown[],
  expected: number | undefined,
): Where {
  const insert = `INSERT INTO ${table} AS m (${COLUMNS}, version)
    VALUES ($1::text[], $2, $3, $4::jsonb, $5, $6::tsvector, $7, $8, $9::real[], 1)`;
  if (expected === undefined) {
    return {
      sql: `${insert} ON CONFLICT (namespace, key) DO UPDATE SET value = EXCLUDED.value,
          doc = EXCLUDED.doc, text_hash = EXCLUDED.text_hash, tsv = EXCLUDED.tsv,
          doc_len = EXCLUDED.doc_len, embedder = EXCLUDED.embedder,
          embedding = EXCLUDED.embedding, version = m.version + 1, updated_at = clock_timestamp()
        RETURNING version`,
      values: [...row],
    };
  }
  if (expected === 0) {
    return {
      sql: `${insert} ON CONFLICT (namespace, key) DO NOTHING RETURNING version`,
      values: [...row],
    };
  }
  return {
    sql: `UPDATE ${table} SET value = $3, doc = $4::jsonb, text_hash = $5, tsv = $6::tsvector,
        doc_len = $7, embedder = $8, embedding = $9::real[], version = version + 1,
        updated_at = clock_timestamp()
      WHERE namespace = $1::text[] AND key = $2 AND version = $10 RETURNING version`,
    values: [...row, expected],
  };
}
