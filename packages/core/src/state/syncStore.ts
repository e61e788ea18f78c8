import type { JsonObject } from '../json.js';
import type { Session } from './session.js';
import type { SaveOptions, VersionedState } from './versionedSession.js';

/**
 * What a session that keeps its states in this process as objects (`InMemorySession`) lets
 * core do synchronously: the same checks and effects as its `save`, `loadVersioned` and
 * `delete`, done at once (a failure is thrown, not a rejection). Internal: durable
 * checkpoints use it to save without a promise per save, and to seal a segment without
 * its JSON text (an object store needs no text, and its keys no content hash).
 */
export interface SyncStore {
  save(key: string, state: JsonObject, options?: SaveOptions): void;
  loadVersioned(key: string): VersionedState | undefined;
  delete(key: string): void;
}

interface Registered {
  readonly store: SyncStore;
  /** Whether the session still runs the methods the store does the work of. */
  readonly intact: (session: Session) => boolean;
}

const stores = new WeakMap<Session, Registered>();

/** Registers `session`'s synchronous store (only core's sessions do, in their constructor). */
export function registerSyncStore(
  session: Session,
  store: SyncStore,
  intact: (session: Session) => boolean,
): void {
  stores.set(session, { store, intact });
}

/**
 * `session`'s synchronous store, or `undefined`: for any other session, and for one whose
 * `save`, `loadVersioned` or `delete` was replaced (a subclass's override, a spy), whose
 * own method must then run.
 */
export function syncStoreOf(session: Session): SyncStore | undefined {
  const registered = stores.get(session);
  return registered?.intact(session) ? registered.store : undefined;
}
