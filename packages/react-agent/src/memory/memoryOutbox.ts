import { isJsonObject, type JsonObject, StateError, type StateModule } from '@rxagent/core';

/** Facts the observer found that are not written to the store yet. */
export interface PendingFacts {
  readonly namespace: readonly string[];
  readonly facts: readonly string[];
}

/**
 * The observer's facts waiting to be written, part of the agent's state (`stateDict().
 * longTermMemory`): filled before the reply is emitted, so a durable agent's finishing
 * checkpoint holds them and a crash before the write loses none; emptied as writes succeed.
 */
export class MemoryOutbox implements StateModule {
  #pending: PendingFacts[] = [];

  /** `loaded` runs after a state with pending facts was loaded (to write them). */
  constructor(readonly loaded: () => void = () => undefined) {}

  /** What waits, oldest first. */
  get pending(): readonly PendingFacts[] {
    return this.#pending;
  }

  push(entry: PendingFacts): void {
    this.#pending = [...this.#pending, entry];
  }

  /** Drops an entry once written (by identity; a reloaded state's entries are new objects). */
  remove(entry: PendingFacts): void {
    this.#pending = this.#pending.filter((pending) => pending !== entry);
  }

  stateDict(): JsonObject {
    return {
      pending: this.#pending.map((entry) => ({
        namespace: [...entry.namespace],
        facts: [...entry.facts],
      })),
    };
  }

  loadStateDict(state: JsonObject): void {
    const pending = state['pending'];
    if (!Array.isArray(pending) || !pending.every(isPending))
      throw new StateError(
        'longTermMemory.pending must be a list of { namespace, facts }.',
        'longTermMemory.pending',
      );
    this.#pending = pending.map((entry) => ({
      namespace: [...(entry['namespace'] as string[])],
      facts: [...(entry['facts'] as string[])],
    }));
    if (this.#pending.length > 0) this.loaded();
  }
}

function isPending(value: unknown): value is JsonObject {
  if (!isJsonObject(value)) return false;
  const { namespace, facts } = value;
  const strings = (list: unknown): boolean =>
    Array.isArray(list) && list.every((item) => typeof item === 'string');
  return strings(namespace) && strings(facts);
}
