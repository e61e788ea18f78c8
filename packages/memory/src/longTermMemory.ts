import {
  type ChatModel,
  checkOptions,
  type Embedder,
  InvalidArgumentError,
  type JsonObject,
  type MemoryStore,
  type Namespace,
  type ScoredMemoryItem,
} from '@rxagent/core';
import type { z } from 'zod';
import { factKey } from './factKey.js';
import { vectorRecall } from './vectorRecall.js';
import { type WorkingMemorySnapshot, WorkingMemoryWriter } from './workingMemory.js';

/** Options of `new LongTermMemory()`. */
export interface LongTermMemoryOptions {
  /** Where memory lives (`InMemoryStore`, `SqliteStore`, `PostgresStore`, …). */
  readonly store: MemoryStore;
  /**
   * The namespace of a call, from its `callContext` (who is asking): e.g.
   * `(ctx) => ['users', String(ctx?.userId)]`. A call sees only its namespace's memory, so
   * one user never sees another's. Called once per call; must return non-empty strings.
   */
  readonly namespace: (callContext: JsonObject | undefined) => readonly string[];
  /** A JSON object the agent keeps up to date with `memory_update`, checked by `schema` (zod). */
  readonly workingMemory?: { readonly schema: z.ZodType };
  /**
   * What recall returns: at most `limit` facts (default 5). With `embedder`, each fact is
   * embedded once when saved and recall fuses keyword and vector rankings (for large
   * namespaces prefer a store built with an embedder, which indexes the vectors itself).
   */
  readonly recall?: { readonly limit?: number; readonly embedder?: Embedder };
  /**
   * A model asked after each reply (with one tool, `save_facts({ facts })`) which facts of
   * the exchange to remember; `instructions` replaces its default system prompt.
   */
  readonly observer?: { readonly model: ChatModel; readonly instructions?: string };
}

/** What one static recall read: working memory and the facts found for the query. */
export interface Recalled {
  readonly namespace: Namespace;
  readonly workingMemory: WorkingMemorySnapshot;
  readonly facts: readonly ScoredMemoryItem[];
}

/** The segment under a user's namespace where facts live. */
export const FACTS_SEGMENT = 'facts';

/**
 * Long-term memory for agents: facts recalled by words (and meaning, with an embedder),
 * a working memory object with a schema, and an observer model that turns each exchange
 * into facts — all kept per namespace (per user, thread or agent) in a `MemoryStore`.
 * Give it to a ReActAgent as `longTermMemory`; `longTermMemoryMode` says whether the agent
 * recalls before its first request (`'static'`), manages memory with tools (`'agent'`), or
 * both (the default).
 *
 * @example
 * ```ts
 * const memory = new LongTermMemory({
 *   store: new InMemoryStore(),
 *   namespace: (ctx) => ['users', String(ctx?.['userId'])],
 *   workingMemory: { schema: z.object({ name: z.string().optional() }) },
 * });
 * await memory.save({ userId: 'ada' }, 'Ada prefers tea.');
 * ```
 */
export class LongTermMemory {
  readonly store: MemoryStore;
  /** How many facts recall returns. */
  readonly recallLimit: number;
  readonly embedder: Embedder | undefined;
  readonly observer: LongTermMemoryOptions['observer'];
  readonly schema: z.ZodType | undefined;
  readonly #namespace: LongTermMemoryOptions['namespace'];
  readonly #working: WorkingMemoryWriter;
  readonly #writes = new Set<Promise<unknown>>();

  constructor(options: LongTermMemoryOptions) {
    const where = 'new LongTermMemory()';
    if (typeof options !== 'object' || options === null)
      throw new InvalidArgumentError(`${where}: expected options { store, namespace, ... }.`);
    checkOptions(options, ['store', 'namespace', 'workingMemory', 'recall', 'observer'], where);
    const { store, namespace, recall = {}, observer, workingMemory } = options;
    if (typeof store?.search !== 'function' || typeof store.put !== 'function')
      throw new InvalidArgumentError(
        `${where}: store must be a MemoryStore (put, get, search, delete, list).`,
      );
    if (typeof namespace !== 'function')
      throw new InvalidArgumentError(
        `${where}: namespace must be a function (callContext) => string[].`,
      );
    checkOptions(recall, ['limit', 'embedder'], `${where}: recall`);
    const limit = recall.limit ?? 5;
    if (!Number.isInteger(limit) || limit < 0)
      throw new InvalidArgumentError(
        `${where}: recall.limit must be an integer ≥ 0, got ${String(limit)}.`,
      );
    if (observer !== undefined) {
      checkOptions(observer, ['model', 'instructions'], `${where}: observer`);
      if (typeof observer.model?.stream !== 'function')
        throw new InvalidArgumentError(`${where}: observer.model must be a ChatModel.`);
    }
    if (workingMemory !== undefined) {
      checkOptions(workingMemory, ['schema'], `${where}: workingMemory`);
      if (typeof workingMemory.schema?.safeParse !== 'function')
        throw new InvalidArgumentError(`${where}: workingMemory.schema must be a zod schema.`);
    }
    this.store = store;
    this.#namespace = namespace;
    this.recallLimit = limit;
    this.embedder = recall.embedder;
    this.observer = observer;
    this.schema = workingMemory?.schema;
    this.#working = new WorkingMemoryWriter(store, this.schema);
  }

  /**
   * Resolves once every write started in the background (an agent's observer facts, written
   * after its reply) has ended, however it ended.
   */
  async settled(): Promise<void> {
    while (this.#writes.size > 0) await Promise.allSettled([...this.#writes]);
  }

  /** Counts `write` among the background writes `settled()` waits for. */
  track(write: Promise<unknown>): void {
    const tracked = write.finally(() => this.#writes.delete(tracked));
    tracked.catch(() => undefined);
    this.#writes.add(tracked);
  }

  /** Whether working memory is kept (a `workingMemory` schema was given). */
  get hasWorkingMemory(): boolean {
    return this.schema !== undefined;
  }

  /** The namespace of a call from its `callContext`, checked. */
  namespaceOf(callContext: JsonObject | undefined): Namespace {
    const namespace = this.#namespace(callContext);
    if (
      !Array.isArray(namespace) ||
      namespace.length === 0 ||
      !namespace.every((segment) => typeof segment === 'string' && segment !== '')
    ) {
      throw new InvalidArgumentError(
        `LongTermMemory: namespace(callContext) must return a non-empty array of non-empty strings, got ${JSON.stringify(namespace)}.`,
      );
    }
    return Object.freeze([...namespace]);
  }

  /** The working memory of the caller (`{}` when none was written). */
  async workingMemory(callContext: JsonObject | undefined): Promise<JsonObject> {
    return (await this.#working.read(this.namespaceOf(callContext))).value;
  }

  /**
   * Static recall: working memory and the facts best matching `query`, read in one round
   * trip (the reads are sent together).
   */
  async recall(
    callContext: JsonObject | undefined,
    query: string,
    signal?: AbortSignal,
  ): Promise<Recalled> {
    const namespace = this.namespaceOf(callContext);
    const working = this.hasWorkingMemory
      ? this.#working.read(namespace)
      : Promise.resolve({ value: {}, version: 0 });
    const facts = this.search(namespace, query, signal);
    const [workingMemory, found] = await Promise.all([working, facts]);
    return { namespace, workingMemory, facts: found };
  }

  /** The facts of `namespace` best matching `query`, best first (at most `limit`). */
  async search(
    namespace: Namespace,
    query: string,
    signal?: AbortSignal,
    limit = this.recallLimit,
  ): Promise<ScoredMemoryItem[]> {
    if (limit === 0 || query.trim() === '') return [];
    const where = [...namespace, FACTS_SEGMENT];
    const options = signal === undefined ? { query, limit } : { query, limit, signal };
    if (this.embedder === undefined) return this.store.search(where, options);
    return vectorRecall(this.store, this.embedder, where, query, limit, signal);
  }

  /** Saves a fact for the caller; resolves its key (`key`, or one made from the text). */
  async save(callContext: JsonObject | undefined, text: string, key?: string): Promise<string> {
    return this.saveIn(this.namespaceOf(callContext), text, key);
  }

  /** Saves a fact in `namespace` (the same text gets the same key: saving twice is harmless). */
  async saveIn(namespace: Namespace, text: string, key = factKey(text)): Promise<string> {
    const value: JsonObject = { text, savedAt: new Date().toISOString() };
    if (this.embedder !== undefined) {
      const [vector] = await this.embedder.embed([text]);
      value['vector'] = vector!;
    }
    await this.store.put([...namespace, FACTS_SEGMENT], key, value, { text });
    return key;
  }

  /** Forgets one fact of the caller; a missing key is not an error. */
  async forget(callContext: JsonObject | undefined, key: string): Promise<void> {
    return this.store.delete([...this.namespaceOf(callContext), FACTS_SEGMENT], key);
  }

  /**
   * Applies a JSON Merge Patch to the caller's working memory (see `WorkingMemoryWriter`):
   * validated by the schema, compare-and-set, one at a time per namespace.
   */
  async updateWorkingMemory(
    callContext: JsonObject | undefined,
    patch: JsonObject,
  ): Promise<JsonObject> {
    return this.patchIn(this.namespaceOf(callContext), patch).then((written) => written.value);
  }

  /** `updateWorkingMemory` on a namespace already resolved. */
  patchIn(namespace: Namespace, patch: JsonObject): Promise<WorkingMemorySnapshot> {
    return this.#working.patch(namespace, patch);
  }

  /**
   * Forgets everything kept for the caller: every fact and the working memory (privacy: what
   * a user's "forget me" needs). Resolves how many items were deleted.
   */
  async forgetAll(callContext: JsonObject | undefined): Promise<number> {
    const namespace = this.namespaceOf(callContext);
    let deleted = 0;
    for (;;) {
      const items = await this.store.search(namespace, { limit: 500 });
      if (items.length === 0) return deleted;
      await Promise.all(items.map((item) => this.store.delete(item.namespace, item.key)));
      deleted += items.length;
    }
  }
}
