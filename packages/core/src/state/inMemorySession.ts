import { SessionConflictError } from '../errors.js';
import type { JsonObject } from '../json.js';
import { copyJsonState, copyJsonStateSharing } from './jsonCopy.js';
import { assertJsonState, assertSessionKey, type Session } from './session.js';
import { registerSyncStore } from './syncStore.js';
import {
  checkExpectedVersion,
  type SaveOptions,
  type VersionedSession,
  type VersionedState,
} from './versionedSession.js';

/**
 * A `Session` that keeps state dicts in this process: for tests and short-lived programs.
 * It stores a deep copy of each state and hands out a fresh deep copy on every load (both
 * what a JSON round trip would give), so changing an object after `save()` or after
 * `load()` never changes what the next `load()` returns, and a state that would not survive
 * a JSON file fails here too. Versioned like the other sessions: `loadVersioned()` and
 * `save(key, state, { expectedVersion })`.
 */
export class InMemorySession implements VersionedSession {
  // The copies share their strings with the state saved (strings cannot change), so a save
  // and a load cost a walk of the state's objects, not a serialisation of its text; the
  // stored copy is never handed out.
  readonly #store = new Map<string, { readonly state: JsonObject; readonly version: number }>();

  constructor() {
    registerSyncStore(
      this,
      {
        save: (key, state, options) => this.#save(key, state, options),
        loadVersioned: (key) => this.#loadVersioned(key),
        delete: (key) => this.#delete(key),
      },
      intact,
    );
  }

  /**
   * Stores a copy of `state` under `key`. Rejects with `InvalidArgumentError` for a bad key,
   * non-JSON state or a bad `expectedVersion`, and with `SessionConflictError` (changing
   * nothing) when `expectedVersion` is given and the key is at another version.
   */
  async save(key: string, state: JsonObject, options?: SaveOptions): Promise<void> {
    this.#save(key, state, options);
  }

  #save(key: string, state: JsonObject, options?: SaveOptions): void {
    assertSessionKey(key, 'InMemorySession.save()');
    const previous = this.#store.get(key);
    // What is unchanged since the last save of the key is shared with that (stored) copy.
    let copy =
      previous === undefined ? copyJsonState(state) : copyJsonStateSharing(state, previous.state);
    if (copy === undefined) {
      // Not JSON (this throws, naming what), or nested too deep for the quick copy.
      assertJsonState(state, 'InMemorySession.save()');
      copy = JSON.parse(JSON.stringify(state)) as JsonObject;
    }
    checkExpectedVersion(options, 'InMemorySession.save()');
    const version = previous?.version ?? 0;
    const expected = options?.expectedVersion;
    if (expected !== undefined && expected !== version) {
      throw new SessionConflictError(key, expected, version);
    }
    this.#store.set(key, { state: copy, version: version + 1 });
  }

  /** A fresh copy of the state saved under `key`, or `undefined`. */
  async load(key: string): Promise<JsonObject | undefined> {
    return (await this.loadVersioned(key))?.state;
  }

  /** A fresh copy of the state saved under `key` with its version, or `undefined`. */
  async loadVersioned(key: string): Promise<VersionedState | undefined> {
    return this.#loadVersioned(key);
  }

  #loadVersioned(key: string): VersionedState | undefined {
    assertSessionKey(key, 'InMemorySession.load()');
    const entry = this.#store.get(key);
    if (entry === undefined) return undefined;
    const state =
      copyJsonState(entry.state) ?? (JSON.parse(JSON.stringify(entry.state)) as JsonObject);
    return { state, version: entry.version };
  }

  /** Forgets `key` (no-op when absent). */
  async delete(key: string): Promise<void> {
    this.#delete(key);
  }

  #delete(key: string): void {
    assertSessionKey(key, 'InMemorySession.delete()');
    this.#store.delete(key);
  }

  /** Every saved key, sorted. */
  async list(): Promise<string[]> {
    return [...this.#store.keys()].sort();
  }
}

const { save, loadVersioned, delete: remove } = InMemorySession.prototype;

/**
 * Whether `session` still saves, loads and deletes with InMemorySession's own methods: a
 * subclass that overrides one, or a spy put on one, is called instead of the sync store.
 */
function intact(session: Session): boolean {
  const own = session as InMemorySession;
  return own.save === save && own.loadVersioned === loadVersioned && own.delete === remove;
}
