import type { JsonObject } from '../json.js';

/**
 * Where a memory item lives: a path of segments, outermost first (`['users', 'alice',
 * 'facts']`). Segments are kept apart whatever they contain: `['a/b']` is never `['a', 'b']`.
 */
export type Namespace = readonly string[];

/** Options of {@link MemoryStore.put}. */
export interface PutOptions {
  /** What search indexes for this item; default: the value's strings, joined. */
  readonly text?: string;
  /**
   * Compare-and-set: the write happens only when the item is at this version now (`0` for
   * "does not exist yet"); otherwise it rejects with `SessionConflictError` and changes nothing.
   */
  readonly expectedVersion?: number;
}

/** One stored item, as `get`, `list` and `search` return it. */
export interface MemoryItem {
  readonly key: string;
  readonly value: JsonObject;
  /** 1 after the first put, +1 on every put. */
  readonly version: number;
  /** ISO time of the last put. */
  readonly updatedAt: string;
  /** The namespace the item lives in (search spans sub-namespaces, so this can be deeper). */
  readonly namespace: Namespace;
}

/** One search hit: the item and its relevance, higher is better. */
export interface ScoredMemoryItem extends MemoryItem {
  readonly score: number;
}

/** Options of {@link MemoryStore.search}. */
export interface SearchOptions {
  /**
   * Words, not a query language: items holding any of them match, ranked by BM25 (fused with
   * vector similarity when the store has an embedder). Punctuation and operator words never
   * throw. Without a query, items are listed newest first.
   */
  readonly query?: string;
  /** Equality on top-level fields of the value. */
  readonly filter?: JsonObject;
  /** At most this many items (default 10). */
  readonly limit?: number;
  /** Aborts the search (and any embedding it needs). */
  readonly signal?: AbortSignal;
}

/**
 * A long-term store of JSON items by namespace and key, searchable by words (and by meaning
 * with an embedder). Every method is async; keys and namespaces are always bound as data,
 * never spliced into a query language.
 *
 * Implementations: `InMemoryStore` (core), `SqliteStore` (`@rxagent/sqlite`), `PostgresStore`
 * (`@rxagent/postgres`); `memoryStoreConformance` (`@rxagent/core/testing`) is the suite each passes.
 */
export interface MemoryStore {
  /** Creates or replaces the item; resolves the item's new version. */
  put(
    namespace: Namespace,
    key: string,
    value: JsonObject,
    options?: PutOptions,
  ): Promise<{ readonly version: number }>;
  /** The item, or `undefined` when there is none. */
  get(namespace: Namespace, key: string): Promise<MemoryItem | undefined>;
  /** Items of `namespace` and every namespace under it, best first. */
  search(namespace: Namespace, options?: SearchOptions): Promise<ScoredMemoryItem[]>;
  /** Forgets the item; a missing one is not an error. */
  delete(namespace: Namespace, key: string): Promise<void>;
  /** The items directly in `namespace` (not under it), sorted by key. */
  list(namespace: Namespace): Promise<MemoryItem[]>;
}
