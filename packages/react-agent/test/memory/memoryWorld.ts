import { InMemoryStore, type JsonObject, type MemoryStore } from '@rxagent/core';
import { LongTermMemory } from '@rxagent/memory';

/**
 * A store that counts round trips: operations started while none was in flight begin a new
 * round trip (operations sent together — `Promise.all` — share one).
 */
export class CountingStore implements MemoryStore {
  roundTrips = 0;
  readonly ops: string[] = [];
  #inFlight = 0;

  constructor(readonly inner: MemoryStore = new InMemoryStore()) {}

  #track<T>(op: string, run: () => Promise<T>): Promise<T> {
    if (this.#inFlight === 0) this.roundTrips++;
    this.#inFlight++;
    this.ops.push(op);
    // Resolved a macrotask later, like a network store: operations sent together overlap.
    return new Promise<void>((resolve) => setTimeout(resolve, 2)).then(run).finally(() => {
      this.#inFlight--;
    });
  }

  reset(): void {
    this.roundTrips = 0;
    this.ops.length = 0;
  }

  put: MemoryStore['put'] = (...args) => this.#track('put', () => this.inner.put(...args));
  get: MemoryStore['get'] = (...args) => this.#track('get', () => this.inner.get(...args));
  search: MemoryStore['search'] = (...args) =>
    this.#track('search', () => this.inner.search(...args));
  delete: MemoryStore['delete'] = (...args) =>
    this.#track('delete', () => this.inner.delete(...args));
  list: MemoryStore['list'] = (...args) => this.#track('list', () => this.inner.list(...args));
}

export const byUser = (ctx: JsonObject | undefined): string[] => ['users', String(ctx?.['userId'])];

/** A LongTermMemory over `store`, per user. */
export function userMemory(
  store: MemoryStore,
  options: Partial<ConstructorParameters<typeof LongTermMemory>[0]> = {},
): LongTermMemory {
  return new LongTermMemory({ store, namespace: byUser, ...options });
}
