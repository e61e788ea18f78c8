import type { JsonObject, Namespace } from '@rxagent/core';
import { encodeText, jsonbText } from '../encoding/textEncoding.js';

/** A WHERE clause over `memory_items` with its bound values, numbered from `$1`. */
export interface Where {
  readonly sql: string;
  readonly values: unknown[];
}

/**
 * The items of `namespace` and everything under it (segment by segment: a prefix of the
 * `text[]`, never of a joined string), whose value's top-level fields equal `filter`'s
 * (`jsonb` equality per field; `@>` first, which the index answers and equality implies).
 * Every namespace segment, field name and value is a bound parameter. Internal.
 */
export function whereOf(namespace: Namespace, filter: JsonObject | undefined): Where {
  const values: unknown[] = [];
  const bind = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  const clauses: string[] = [];
  if (namespace.length > 0) {
    const segments = bind(namespace.map(encodeText));
    clauses.push(`namespace[1:${namespace.length}] = ${segments}::text[]`);
  }
  if (filter !== undefined && Object.keys(filter).length > 0) {
    clauses.push(`doc @> ${bind(jsonbText(filter))}::jsonb`);
    for (const [name, wanted] of Object.entries(filter)) {
      const field = bind(name.replace(/\0/g, '\uFFFD'));
      clauses.push(`doc -> ${field} = ${bind(jsonbText(wanted))}::jsonb`);
    }
  }
  return { sql: clauses.length === 0 ? 'TRUE' : clauses.join(' AND '), values };
}

/**
 * One statement ranking the items `where` selects by Okapi BM25 for `terms` (k1 = 1.2,
 * b = 0.75, the formula of core's `Bm25Index`): the document frequencies, count and average
 * length are those of the selected items; term frequencies come from the stored
 * `tsvector`'s positions; the GIN index finds the items holding any term. Best first, newest
 * first among equals. Internal.
 */
export function bm25Sql(
  table: string,
  columns: string,
  where: Where,
  terms: readonly string[],
  limit: number,
): Where {
  const values = [...where.values, terms.map((t) => `'${t}'`).join(' | '), [...terms], limit];
  const n = values.length;
  const sql = `
    WITH cand AS (SELECT * FROM ${table} WHERE ${where.sql}),
    stats AS (
      SELECT count(*)::float8 AS n, greatest(avg(doc_len), 1)::float8 AS avgdl FROM cand
    ),
    hits AS (
      SELECT c.namespace, c.key, c.doc_len, u.lexeme,
             coalesce(array_length(u.positions, 1), 1)::float8 AS tf
      FROM cand c CROSS JOIN LATERAL unnest(c.tsv) AS u
      WHERE c.tsv @@ $${n - 2}::tsquery AND u.lexeme = ANY($${n - 1}::text[])
    ),
    df AS (SELECT lexeme, count(*)::float8 AS df FROM hits GROUP BY lexeme),
    scored AS (
      SELECT h.namespace, h.key,
             sum(ln(1 + (s.n - df.df + 0.5) / (df.df + 0.5)) * h.tf * 2.2
                 / (h.tf + 1.2 * (0.25 + 0.75 * h.doc_len / s.avgdl))) AS score
      FROM hits h JOIN df USING (lexeme) CROSS JOIN stats s
      GROUP BY h.namespace, h.key
    )
    SELECT ${columns
      .split(', ')
      .map((c) => `c.${c}`)
      .join(', ')}, sc.score
    FROM scored sc JOIN cand c USING (namespace, key)
    ORDER BY sc.score DESC, c.updated_at DESC, c.key
    LIMIT $${n}`;
  return { sql, values };
}
