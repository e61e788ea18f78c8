import { createHash } from 'node:crypto';
import {
  assertNamespace,
  assertSessionKey,
  checkOptions,
  checkPut,
  checkSearch,
  type Embedder,
  embedChecked,
  fuseRankings,
  type JsonObject,
  type MemoryItem,
  type MemoryStore,
  type Namespace,
  optionNames,
  type PutOptions,
  type ScoredMemoryItem,
  type SearchOptions,
  SessionConflictError,
  tokenize,
  valueText,
} from '@rxagent/core';
import {
  PostgresConnection,
  type PostgresConnectionOptions,
} from '../connection/postgresConnection.js';
import { assertKeySize, encodeText, jsonbText } from '../encoding/textEncoding.js';
import { ITEM_COLUMNS, type ItemRow, itemOf } from './itemRow.js';
import { putSql } from './putSql.js';
import { bm25Sql, whereOf } from './searchSql.js';
import { tsvectorOf } from './searchText.js';
import { hasPgvector, pgvectorHits, scanVectors } from './vectorSearch.js';

/** Options of `new PostgresStore()`. */
export interface PostgresStoreOptions extends PostgresConnectionOptions {
  /**
   * Ranks searches by keywords and meaning fused (reciprocal rank fusion). Vectors are kept
   * in the row (`real[]`) and scored in this process; a text already embedded by this
   * embedder (same text, same `name` and `dimensions`) is never embedded again.
   */
  readonly embedder?: Embedder;
}

const OPTION_KEYS = optionNames<PostgresStoreOptions>({
  connectionString: true,
  pool: true,
  schema: true,
  timeoutMs: true,
  embedder: true,
});

/**
 * A `MemoryStore` in PostgreSQL (`<schema>.memory_items`, created by the package's
 * migrations): items by namespace (a `text[]`, so `['a/b']` is never `['a', 'b']`) and key;
 * each value kept as its JSON text (byte for byte) plus a `jsonb` copy for equality filters;
 * BM25 search over a `tsvector` of the item's words (the value's strings unless `put` gives
 * a `text`), computed in one statement over the namespace and everything under it. Words are
 * found by the same tokenizer as `InMemoryStore` whatever the database's locale, and a query
 * is words only: punctuation and operator words never throw. `put` with `expectedVersion`
 * is a compare-and-set in one statement. Namespaces, keys and filters are bound parameters.
 *
 * @example
 * ```ts
 * const store = new PostgresStore({ connectionString: process.env['DATABASE_URL'] });
 * await store.put(['users', 'alice'], 'diet', { fact: 'Alice is vegetarian' });
 * const hits = await store.search(['users'], { query: 'vegetarian' });
 * await store.close();
 * ```
 */
export class PostgresStore implements MemoryStore {
  readonly #db: PostgresConnection;
  readonly #table: string;
  readonly #embedder: Embedder | undefined;
  /** Whether the database has the `vector` extension (looked up once, with an embedder). */
  #pgvector: Promise<boolean> | undefined;

  constructor(options: PostgresStoreOptions = {}) {
    checkOptions(options, OPTION_KEYS, 'PostgresStore');
    this.#db = new PostgresConnection(options, 'PostgresStore');
    this.#table = `"${this.#db.schema}".memory_items`;
    this.#embedder = options.embedder;
  }

  /** Creates or replaces the item; rejects with `SessionConflictError` on a stale `expectedVersion`. */
  async put(
    namespace: Namespace,
    key: string,
    value: JsonObject,
    options?: PutOptions,
  ): Promise<{ readonly version: number }> {
    checkPut(namespace, key, value, options, 'PostgresStore.put()');
    assertKeySize([...namespace, key], 'PostgresStore.put()');
    const text = options?.text ?? valueText(value);
    const hash = createHash('sha256').update(text).digest('hex');
    const embedding = await this.#embeddingOf(text, hash);
    const ns = namespace.map(encodeText);
    const k = encodeText(key);
    const expected = options?.expectedVersion;
    const row = [
      ns,
      k,
      JSON.stringify(value),
      jsonbText(value),
      hash,
      tsvectorOf(text),
      tokenize(text).length,
      this.#embedderId(),
      embedding,
    ];
    const t = this.#table;
    const statement = putSql(t, row, expected);
    const result = await this.#db.query<{ version: string }>(
      statement.sql,
      statement.values,
      `putting ${JSON.stringify(key)}`,
    );
    const saved = result.rows[0];
    if (saved !== undefined) return { version: Number(saved.version) };
    const current = await this.#db.query<{ version: string }>(
      `SELECT version FROM ${t} WHERE namespace = $1::text[] AND key = $2`,
      [ns, k],
      `reading the version of ${JSON.stringify(key)}`,
    );
    throw new SessionConflictError(key, expected ?? 0, Number(current.rows[0]?.version ?? 0));
  }

  /** The item, or `undefined`. */
  async get(namespace: Namespace, key: string): Promise<MemoryItem | undefined> {
    assertNamespace(namespace, 'PostgresStore.get()');
    assertSessionKey(key, 'PostgresStore.get()');
    const { rows } = await this.#db.query<ItemRow>(
      `SELECT ${ITEM_COLUMNS} FROM ${this.#table} WHERE namespace = $1::text[] AND key = $2`,
      [namespace.map(encodeText), encodeText(key)],
      `getting ${JSON.stringify(key)}`,
    );
    return rows[0] && itemOf(rows[0], this.#table);
  }

  /** Items of `namespace` and under it: BM25 (fused with vectors) for a query, else newest first. */
  async search(namespace: Namespace, options: SearchOptions = {}): Promise<ScoredMemoryItem[]> {
    const limit = checkSearch(namespace, options, 'PostgresStore.search()');
    options.signal?.throwIfAborted();
    const where = whereOf(namespace, options.filter);
    const query = options.query?.trim() ?? '';
    if (query === '') {
      const { rows } = await this.#db.query<ItemRow>(
        `SELECT ${ITEM_COLUMNS} FROM ${this.#table} WHERE ${where.sql}
         ORDER BY updated_at DESC, key LIMIT $${where.values.length + 1}`,
        [...where.values, limit],
        'listing the newest items',
      );
      return rows.map((row) => ({ ...itemOf(row, this.#table), score: 0 }));
    }
    const terms = [...new Set(tokenize(query))];
    const keyword =
      terms.length === 0
        ? []
        : await this.#keywordHits(where, terms, this.#embedder ? limit * 4 + 20 : limit);
    if (this.#embedder === undefined) return keyword;
    const meaning = await this.#meaningHits(where, query, limit, options.signal);
    const byId = new Map<string, ScoredMemoryItem>();
    const id = (item: MemoryItem) => JSON.stringify([item.namespace, item.key]);
    for (const item of [...keyword, ...meaning]) byId.set(id(item), item);
    return fuseRankings([keyword.map(id), meaning.map(id)])
      .slice(0, limit)
      .map((hit) => ({ ...(byId.get(hit.id) as ScoredMemoryItem), score: hit.score }));
  }

  /** Forgets the item (no-op when absent). */
  async delete(namespace: Namespace, key: string): Promise<void> {
    assertNamespace(namespace, 'PostgresStore.delete()');
    assertSessionKey(key, 'PostgresStore.delete()');
    await this.#db.query(
      `DELETE FROM ${this.#table} WHERE namespace = $1::text[] AND key = $2`,
      [namespace.map(encodeText), encodeText(key)],
      `deleting ${JSON.stringify(key)}`,
    );
  }

  /** The items directly in `namespace`, sorted by key as JavaScript sorts strings. */
  async list(namespace: Namespace): Promise<MemoryItem[]> {
    assertNamespace(namespace, 'PostgresStore.list()');
    const { rows } = await this.#db.query<ItemRow>(
      `SELECT ${ITEM_COLUMNS} FROM ${this.#table} WHERE namespace = $1::text[]`,
      [namespace.map(encodeText)],
      'listing items',
    );
    const items = rows.map((row) => itemOf(row, this.#table));
    return items.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** Ends the pool this store created (a pool you passed stays open); idempotent. */
  close(): Promise<void> {
    return this.#db.close();
  }

  async #keywordHits(
    where: ReturnType<typeof whereOf>,
    terms: readonly string[],
    limit: number,
  ): Promise<ScoredMemoryItem[]> {
    const statement = bm25Sql(this.#table, ITEM_COLUMNS, where, terms, limit);
    const { rows } = await this.#db.query<ItemRow & { score: number }>(
      statement.sql,
      statement.values,
      'searching',
    );
    return rows.map((row) => ({ ...itemOf(row, this.#table), score: Number(row.score) }));
  }

  /** The items most similar to `query` by their vectors, scored here (cosine > 0 only). */
  async #meaningHits(
    where: ReturnType<typeof whereOf>,
    query: string,
    limit: number,
    signal: AbortSignal | undefined,
  ): Promise<ScoredMemoryItem[]> {
    const embedder = this.#embedder as Embedder;
    const [wanted] = await embedChecked(embedder, [query], signal);
    signal?.throwIfAborted();
    const id = this.#embedderId() as string;
    this.#pgvector ??= hasPgvector(this.#db).catch((error: unknown) => {
      this.#pgvector = undefined;
      throw error;
    });
    const search = (await this.#pgvector) ? pgvectorHits : scanVectors;
    return search(this.#db, this.#table, where, {
      vector: wanted as number[],
      embedder: id,
      limit,
    });
  }

  /** The embedder's identity in the rows: vectors of two embedders are never compared. */
  #embedderId(): string | null {
    const embedder = this.#embedder;
    return embedder === undefined ? null : `${embedder.name}:${embedder.dimensions}`;
  }

  /** The vector of `text`: one already stored for it by this embedder, else a new one. */
  async #embeddingOf(text: string, hash: string): Promise<number[] | null> {
    const embedder = this.#embedder;
    if (embedder === undefined) return null;
    const { rows } = await this.#db.query<{ embedding: number[] }>(
      `SELECT embedding FROM ${this.#table}
       WHERE text_hash = $1 AND embedder = $2 AND embedding IS NOT NULL LIMIT 1`,
      [hash, this.#embedderId()],
      'looking up an embedding',
    );
    if (rows[0] !== undefined) return rows[0].embedding;
    const [vector] = await embedChecked(embedder, [text], undefined);
    return vector as number[];
  }
}
