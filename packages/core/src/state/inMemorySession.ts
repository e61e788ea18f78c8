import type { JsonObject } from '../json.js';
import { assertJsonState, assertSessionKey, type Session } from './session.js';

/**
 * A `Session` that keeps state dicts in this process: for tests and short-lived programs.
 * It stores each state as JSON text, so changing an object after `save()` or after `load()`
 * never changes what the next `load()` returns, and a state that would not survive a
 * JSON file fails here too.
 */
export class InMemorySession implements Session {
  readonly #store = new Map<string, string>();

  /** Stores a copy of `state` under `key`. Rejects with `InvalidArgumentError` for a bad key or non-JSON state. */
  async save(key: string, state: JsonObject): Promise<void> {
    assertSessionKey(key, 'InMemorySession.save()');
    assertJsonState(state, 'InMemorySession.save()');
    this.#store.set(key, JSON.stringify(state));
  }

  /** A fresh copy of the state saved under `key`, or `undefined`. */
  async load(key: string): Promise<JsonObject | undefined> {
    assertSessionKey(key, 'InMemorySession.load()');
    const text = this.#store.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as JsonObject);
  }

  /** Forgets `key` (no-op when absent). */
  async delete(key: string): Promise<void> {
    assertSessionKey(key, 'InMemorySession.delete()');
    this.#store.delete(key);
  }

  /** Every saved key, sorted. */
  async list(): Promise<string[]> {
    return [...this.#store.keys()].sort();
  }
}
