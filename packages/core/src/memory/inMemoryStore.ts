import { SessionConflictError } from '../errors.js';
import type { JsonObject } from '../json.js';
import { checkOptions } from '../options/checkOptions.js';
import { assertSessionKey } from '../state/session.js';
import { Bm25Index, tokenize } from './bm25.js';
import type { Embedder } from './embedder.js';
import { cosineSimilarity, embedChecked, fuseRankings } from './fuseRankings.js';
import type {
  MemoryItem,
  MemoryStore,
  Namespace,
  PutOptions,
  ScoredMemoryItem,
  SearchOptions,
} from './memoryStore.js';
import {
  assertNamespace,
  checkPut,
  checkSearch,
  isUnderNamespace,
  matchesFilter,
  valueText,
} from './memoryStoreChecks.js';

/** Options of `new InMemoryStore()`. */
export interface InMemoryStoreOptions {
  /** Ranks searches by keywords and meaning fused; each item's text is embedded once. */
  readonly embedder?: Embedder;
}

interface Entry {
  readonly key: string;
  readonly namespace: Namespace;
  /** Kept as JSON text: every read hands out a fresh copy, and no caller can change it. */
  readonly json: string;
  readonly version: number;
  readonly updatedAt: string;
  /** Put order, to tell apart puts within one millisecond (newest first). */
  readonly seq: number;
  readonly text: string;
  readonly terms: readonly string[];
  readonly vector: readonly number[] | undefined;
}

/**
 * A `MemoryStore` in this process, for tests, prototypes and short-lived programs: items by
 * namespace and key, BM25 search over their text (the value's strings unless `put` gives a
 * `text`), equality filters, compare-and-set with `expectedVersion`. With an `embedder`,
 * search fuses keyword and vector rankings (reciprocal rank fusion), and an item whose text
 * did not change is never embedded again.
 *
 * @example
 * ```ts
 * const store = new InMemoryStore();
 * await store.put(['users', 'alice'], 'diet', { fact: 'Alice is vegetarian' });
 * const hits = await store.search(['users', 'alice'], { query: 'vegetarian food' });
 * console.log(hits[0]?.value); // { fact: 'Alice is vegetarian' }
 * ```
 */
export class InMemoryStore implements MemoryStore {
  readonly #embedder: Embedder | undefined;
  /** By namespace (its segments as JSON, so `['a/b']` and `['a', 'b']` never meet), then key. */
  readonly #spaces = new Map<string, Map<string, Entry>>();
  #seq = 0;
  /**
   * The BM25 index of a namespace's items (and everything under it) as the last search
   * without a filter built it, kept until a put or delete under that namespace: repeated
   * searches of an unchanged namespace (an agent's recall on every call) build it once.
   */
  readonly #indexes = new Map<string, SearchIndex>();

  constructor(options: InMemoryStoreOptions = {}) {
    checkOptions(options, ['embedder'], 'new InMemoryStore()');
    this.#embedder = options.embedder;
  }

  /** Creates or replaces the item; rejects with `SessionConflictError` on a stale `expectedVersion`. */
  async put(
    namespace: Namespace,
    key: string,
    value: JsonObject,
    options?: PutOptions,
  ): Promise<{ readonly version: number }> {
    checkPut(namespace, key, value, options, 'InMemoryStore.put()');
    const json = JSON.stringify(value);
    const text = options?.text ?? valueText(value);
    const space = JSON.stringify(namespace);
    const before = this.#spaces.get(space)?.get(key);
    this.#checkVersion(before, key, options);
    let vector = before?.text === text ? before.vector : undefined;
    if (this.#embedder !== undefined && vector === undefined) {
      [vector] = await embedChecked(this.#embedder, [text], undefined);
    }
    // The embedding awaited: check again, so the compare and the write are one step.
    const current = this.#spaces.get(space)?.get(key);
    this.#checkVersion(current, key, options);
    const version = (current?.version ?? 0) + 1;
    this.#invalidate(namespace);
    let items = this.#spaces.get(space);
    if (items === undefined) {
      items = new Map();
      this.#spaces.set(space, items);
    }
    items.set(key, {
      key,
      namespace: [...namespace],
      json,
      version,
      updatedAt: new Date().toISOString(),
      seq: ++this.#seq,
      text,
      terms: tokenize(text),
      vector,
    });
    return { version };
  }

  #checkVersion(entry: Entry | undefined, key: string, options: PutOptions | undefined): void {
    const expected = options?.expectedVersion;
    const actual = entry?.version ?? 0;
    if (expected !== undefined && expected !== actual)
      throw new SessionConflictError(key, expected, actual);
  }

  /** The item, or `undefined`. */
  async get(namespace: Namespace, key: string): Promise<MemoryItem | undefined> {
    assertNamespace(namespace, 'InMemoryStore.get()');
    assertSessionKey(key, 'InMemoryStore.get()');
    const entry = this.#spaces.get(JSON.stringify(namespace))?.get(key);
    return entry && itemOf(entry);
  }

  /** Items of `namespace` and under it: BM25 (fused with vectors) for a query, else newest first. */
  async search(namespace: Namespace, options: SearchOptions = {}): Promise<ScoredMemoryItem[]> {
    const limit = checkSearch(namespace, options, 'InMemoryStore.search()');
    options.signal?.throwIfAborted();
    const query = options.query?.trim() ?? '';
    const cacheKey =
      options.filter === undefined && query !== '' ? JSON.stringify(namespace) : undefined;
    const cached = cacheKey === undefined ? undefined : this.#indexes.get(cacheKey);
    const found: Entry[] = [];
    if (cached === undefined) {
      for (const items of this.#spaces.values()) {
        for (const entry of items.values()) {
          if (!isUnderNamespace(entry.namespace, namespace)) continue;
          if (
            options.filter !== undefined &&
            !matchesFilter(JSON.parse(entry.json), options.filter)
          )
            continue;
          found.push(entry);
        }
      }
    }
    const candidates: readonly Entry[] = cached?.candidates ?? found;
    if (query === '') {
      return found
        .sort((a, b) => b.seq - a.seq)
        .slice(0, limit)
        .map((entry) => ({ ...itemOf(entry), score: 0 }));
    }
    const index =
      cached?.index ??
      new Bm25Index(candidates.map((entry, i) => ({ id: String(i), terms: entry.terms })));
    if (cacheKey !== undefined && cached === undefined)
      this.#indexes.set(cacheKey, { namespace: [...namespace], candidates, index });
    const entryOf = (id: string): Entry => candidates[Number(id)] as Entry;
    // Fused with vectors, the whole keyword ranking counts; alone, only its first `limit`.
    const keyword = index.search(query, this.#embedder === undefined ? limit : candidates.length);
    let ranked: { id: string; score: number }[] = keyword;
    if (this.#embedder !== undefined && candidates.length > 0) {
      const [wanted] = await embedChecked(this.#embedder, [query], options.signal);
      const byMeaning = candidates
        .map((entry, i) => ({
          id: String(i),
          score: entry.vector ? cosineSimilarity(wanted as number[], entry.vector) : 0,
        }))
        .filter((hit) => hit.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, limit);
      ranked = fuseRankings([keyword.map((hit) => hit.id), byMeaning.map((hit) => hit.id)]);
    }
    return ranked.slice(0, limit).map((hit) => ({ ...itemOf(entryOf(hit.id)), score: hit.score }));
  }

  /** Drops the cached indexes that hold `namespace`'s items (those of it and above it). */
  #invalidate(namespace: Namespace): void {
    for (const [key, cached] of this.#indexes)
      if (isUnderNamespace(namespace, cached.namespace)) this.#indexes.delete(key);
  }

  /** Forgets the item (no-op when absent). */
  async delete(namespace: Namespace, key: string): Promise<void> {
    assertNamespace(namespace, 'InMemoryStore.delete()');
    assertSessionKey(key, 'InMemoryStore.delete()');
    const space = JSON.stringify(namespace);
    const items = this.#spaces.get(space);
    if (items?.delete(key)) this.#invalidate(namespace);
    if (items?.size === 0) this.#spaces.delete(space);
  }

  /** The items directly in `namespace`, sorted by key. */
  async list(namespace: Namespace): Promise<MemoryItem[]> {
    assertNamespace(namespace, 'InMemoryStore.list()');
    const items = this.#spaces.get(JSON.stringify(namespace));
    if (items === undefined) return [];
    return [...items.keys()].sort().map((key) => itemOf(items.get(key) as Entry));
  }
}

/** A namespace's search index, with the entries its ids (their positions) stand for. */
interface SearchIndex {
  readonly namespace: Namespace;
  readonly candidates: readonly Entry[];
  readonly index: Bm25Index;
}

function itemOf(entry: Entry): MemoryItem {
  return {
    key: entry.key,
    value: JSON.parse(entry.json) as JsonObject,
    version: entry.version,
    updatedAt: entry.updatedAt,
    namespace: [...entry.namespace],
  };
}
