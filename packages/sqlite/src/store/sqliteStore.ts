import {
  assertNamespace,
  assertSessionKey,
  checkOptions,
  checkPut,
  checkSearch,
  cosineSimilarity,
  type Embedder,
  embedChecked,
  fuseRankings,
  type JsonObject,
  type MemoryItem,
  type MemoryStore,
  matchesFilter,
  type Namespace,
  optionNames,
  type PutOptions,
  type ScoredMemoryItem,
  type SearchOptions,
  SessionConflictError,
  valueText,
} from '@rxagent/core';
import { SqliteConnection, type SqliteConnectionOptions } from '../driver/sqliteConnection.js';
import type { SqliteDriverName, SqliteParam, SqliteRow } from '../driver/sqliteDriver.js';
import { checkTableName } from '../driver/tableName.js';
import { ftsQuery, ftsQueryUnder } from './ftsQuery.js';
import { namespacePath, namespaceToken, pathRangeEnd } from './namespacePath.js';
import { RangeShares } from './rangeShares.js';
import { itemOf, vectorOf } from './storeRows.js';
import { storeSchema } from './storeSchema.js';
import { storeStatements } from './storeStatements.js';

/** Options of `new SqliteStore()`. */
export interface SqliteStoreOptions extends SqliteConnectionOptions {
  /** The table holding the items (default `"rxagent_memory"`; its index is `<table>_fts`). */
  readonly table?: string;
  /** Ranks searches by keywords and meaning fused; each item's text is embedded once. */
  readonly embedder?: Embedder;
}

const KEYS = optionNames<SqliteStoreOptions>({
  path: true,
  table: true,
  busyTimeoutMs: true,
  driver: true,
  embedder: true,
});

/**
 * A `MemoryStore` in a SQLite database: long-term memory that survives the process and is
 * shared by the processes of one machine (WAL). Search ranks by FTS5's BM25 over each item's
 * text (the value's strings unless `put` gives a `text`; porter stemming, any script): a
 * query is words, items holding any of them match, and no character of it is taken as FTS
 * syntax. With an `embedder`, each item's vector is kept beside it (a float32 blob, embedded
 * only when its text changed) and scored in this process; keyword and vector rankings are
 * fused by reciprocal rank fusion. `put` with `expectedVersion` is one compare-and-set
 * statement. Tables are created by numbered migrations on first use.
 *
 * @example
 * ```ts
 * const store = new SqliteStore({ path: './memory.db' });
 * await store.put(['users', 'alice'], 'diet', { fact: 'Alice is vegetarian' });
 * const hits = await store.search(['users', 'alice'], { query: 'what does alice eat' });
 * ```
 */
export class SqliteStore implements MemoryStore {
  /** The table holding the items. */
  readonly table: string;
  readonly #db: SqliteConnection;
  readonly #embedder: Embedder | undefined;
  readonly #sql: ReturnType<typeof storeStatements>;
  readonly #shares = new RangeShares();

  constructor(options: SqliteStoreOptions = {}) {
    checkOptions(options, KEYS, 'SqliteStore');
    const table = checkTableName(options.table ?? 'rxagent_memory', 'SqliteStore');
    this.table = table;
    this.#embedder = options.embedder;
    this.#db = new SqliteConnection(options, storeSchema(table), 'SqliteStore');
    this.#sql = storeStatements(table);
  }

  /** The database file (or `':memory:'`). */
  get path(): string {
    return this.#db.path;
  }

  /** The driver this store runs on. */
  get driver(): SqliteDriverName {
    return this.#db.driver;
  }

  /** Creates or replaces the item; rejects with `SessionConflictError` on a stale `expectedVersion`. */
  async put(
    namespace: Namespace,
    key: string,
    value: JsonObject,
    options?: PutOptions,
  ): Promise<{ readonly version: number }> {
    checkPut(namespace, key, value, options, 'SqliteStore.put()');
    const ns = namespacePath(namespace);
    const json = JSON.stringify(value);
    const text = options?.text ?? valueText(value);
    const vector = await this.#vectorFor(ns, key, text);
    const now = new Date().toISOString();
    const expected = options?.expectedVersion;
    const embedder = vector === null ? null : (this.#embedder?.name ?? null);
    const db = this.#db;
    return db.use(`putting ${JSON.stringify(key)}`, (conn) => {
      let row: SqliteRow | undefined;
      if (expected === undefined) {
        row = db.statement(conn, this.#sql.upsert).get(ns, key, json, text, now, embedder, vector);
      } else if (expected === 0) {
        row = db.statement(conn, this.#sql.create).get(ns, key, json, text, now, embedder, vector);
      } else {
        row = db
          .statement(conn, this.#sql.update)
          .get(json, text, now, embedder, vector, ns, key, expected);
      }
      if (row !== undefined) return { version: Number(row['version']) };
      const current = db.statement(conn, this.#sql.version).get(ns, key);
      throw new SessionConflictError(key, expected ?? 0, Number(current?.['version'] ?? 0));
    });
  }

  /** The stored vector when the item's text is unchanged, else a new embedding (or null). */
  async #vectorFor(ns: string, key: string, text: string): Promise<Uint8Array | null> {
    const embedder = this.#embedder;
    if (embedder === undefined) return null;
    const db = this.#db;
    const before = db.use('reading an item', (conn) =>
      db.statement(conn, this.#sql.embedded).get(ns, key),
    );
    if (before?.['text'] === text && before['embedder'] === embedder.name && before['vector'])
      return new Uint8Array(before['vector'] as Uint8Array);
    const [vector] = await embedChecked(embedder, [text], undefined);
    return new Uint8Array(Float32Array.from(vector as number[]).buffer);
  }

  /** The item, or `undefined`. */
  async get(namespace: Namespace, key: string): Promise<MemoryItem | undefined> {
    assertNamespace(namespace, 'SqliteStore.get()');
    assertSessionKey(key, 'SqliteStore.get()');
    const db = this.#db;
    const row = db.use(`getting ${JSON.stringify(key)}`, (conn) =>
      db.statement(conn, this.#sql.get).get(namespacePath(namespace), key),
    );
    return row && itemOf(row, db.store);
  }

  /** Items of `namespace` and under it: BM25 (fused with vectors) for a query, else newest first. */
  async search(namespace: Namespace, options: SearchOptions = {}): Promise<ScoredMemoryItem[]> {
    const limit = checkSearch(namespace, options, 'SqliteStore.search()');
    options.signal?.throwIfAborted();
    const from = namespacePath(namespace);
    const to = pathRangeEnd(from);
    const { filter } = options;
    // A filter is applied here, on the values: then SQL cannot stop at `limit` rows.
    const bounded = filter === undefined;
    const keep = (rows: SqliteRow[]): ScoredMemoryItem[] => {
      const items: ScoredMemoryItem[] = [];
      for (const row of rows) {
        const item = itemOf(row, this.#db.store);
        if (!matchesFilter(item.value, filter)) continue;
        items.push({ ...item, score: Number(row['score'] ?? 0) });
        if (items.length >= limit) break;
      }
      return items;
    };
    const query = options.query?.trim() ?? '';
    if (query === '')
      return keep(
        this.#all(bounded ? this.#sql.recentLimited : this.#sql.recent, [from, to], limit, bounded),
      );
    const words = ftsQuery(query);
    const keyword = words === undefined ? [] : keep(this.#match(words, from, to, limit, bounded));
    const embedder = this.#embedder;
    if (embedder === undefined) return keyword;
    const [wanted] = await embedChecked(embedder, [query], options.signal);
    const byMeaning = this.#nearest(wanted as number[], from, to, embedder.name, limit, filter);
    const byId = new Map<string, ScoredMemoryItem>();
    for (const item of keyword) byId.set(idOf(item), item);
    for (const item of byMeaning) if (!byId.has(idOf(item))) byId.set(idOf(item), item);
    const fused = fuseRankings([keyword.map(idOf), byMeaning.map(idOf)]);
    return fused
      .slice(0, limit)
      .map((hit) => ({ ...(byId.get(hit.id) as ScoredMemoryItem), score: hit.score }));
  }

  /**
   * The rows matching `words` under the range, best first, by one of three plans that rank
   * alike (bm25 over the whole table's statistics; tied scores in any order):
   * - the range holds under half the items: the namespace inside the FTS5 query, so FTS5
   *   ranks only its matches;
   * - it holds most (and no filter): the best matches of the whole table, a few more than
   *   `limit`, kept when in range — only those rows are joined; when too few of them are in
   *   range, the next plan;
   * - else every match joined and filtered by the range, ranked after the filter.
   */
  #match(words: string, from: string, to: string, limit: number, bounded: boolean): SqliteRow[] {
    const sql = this.#sql;
    const share = from === '' ? 1 : this.#shares.share(from, () => this.#countRange(from, to));
    if (share < 0.5) {
      const under = ftsQueryUnder(words, namespaceToken(from));
      return this.#all(bounded ? sql.rankedLimited : sql.under, [under], limit, bounded);
    }
    if (bounded) {
      const fetch = Math.ceil(limit / share) + 2;
      const best = this.#all(sql.rankedLimited, [words], fetch, true);
      const kept = best.filter((row) => {
        const ns = String(row['ns']);
        return ns >= from && ns < to;
      });
      if (kept.length >= limit || best.length < fetch) return kept;
    }
    return this.#all(bounded ? sql.withinLimited : sql.within, [words, from, to], limit, bounded);
  }

  #countRange(from: string, to: string): { inRange: number; total: number } {
    const db = this.#db;
    return db.use('searching', (conn) => ({
      inRange: Number(db.statement(conn, this.#sql.countWithin).get(from, to)?.['n'] ?? 0),
      total: Number(db.statement(conn, this.#sql.count).get()?.['n'] ?? 0),
    }));
  }

  #all(sql: string, params: SqliteParam[], limit: number, bounded: boolean): SqliteRow[] {
    const db = this.#db;
    return db.use('searching', (conn) =>
      db.statement(conn, sql).all(...params, ...(bounded ? [limit] : [])),
    );
  }

  /** The `limit` items under the range whose vectors are nearest `wanted` (cosine > 0). */
  #nearest(
    wanted: number[],
    from: string,
    to: string,
    embedder: string,
    limit: number,
    filter: JsonObject | undefined,
  ): ScoredMemoryItem[] {
    const db = this.#db;
    const rows = db.use('searching', (conn) =>
      db.statement(conn, this.#sql.vectors).all(from, to, embedder),
    );
    const scored: { id: number; score: number }[] = [];
    for (const row of rows) {
      const score = cosineSimilarity(wanted, vectorOf(row['vector'] as Uint8Array));
      if (score > 0) scored.push({ id: Number(row['id']), score });
    }
    scored.sort((a, b) => b.score - a.score);
    const items: ScoredMemoryItem[] = [];
    for (const { id, score } of scored) {
      const row = db.use('searching', (conn) => db.statement(conn, this.#sql.byId).get(id));
      if (row === undefined) continue;
      const item = itemOf(row, db.store);
      if (!matchesFilter(item.value, filter)) continue;
      items.push({ ...item, score });
      if (items.length >= limit) break;
    }
    return items;
  }

  /** Forgets the item (no-op when absent). */
  async delete(namespace: Namespace, key: string): Promise<void> {
    assertNamespace(namespace, 'SqliteStore.delete()');
    assertSessionKey(key, 'SqliteStore.delete()');
    const db = this.#db;
    db.use(`deleting ${JSON.stringify(key)}`, (conn) => {
      db.statement(conn, this.#sql.delete).run(namespacePath(namespace), key);
    });
  }

  /** The items directly in `namespace`, sorted by key (as JavaScript sorts strings). */
  async list(namespace: Namespace): Promise<MemoryItem[]> {
    assertNamespace(namespace, 'SqliteStore.list()');
    const db = this.#db;
    const rows = db.use('listing', (conn) =>
      db.statement(conn, this.#sql.list).all(namespacePath(namespace)),
    );
    return rows
      .map((row) => itemOf(row, db.store))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** Closes the database connection; later calls fail. Idempotent. */
  async close(): Promise<void> {
    this.#db.close();
  }
}

/** An item's identity across the two rankings. */
function idOf(item: MemoryItem): string {
  return JSON.stringify([item.namespace, item.key]);
}
