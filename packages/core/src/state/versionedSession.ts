import { InvalidArgumentError } from '../errors.js';
import type { JsonObject } from '../json.js';
import type { Session } from './session.js';

/** What `loadVersioned()` returns: the state and the version to pass back to `save()`. */
export interface VersionedState {
  readonly state: JsonObject;
  /** 1 after the first save, +1 on every save. */
  readonly version: number;
}

/** Options of a versioned `save()`. */
export interface SaveOptions {
  /**
   * Save only if the key is still at this version (from `loadVersioned()`; 0 for "not saved
   * yet"); otherwise reject with `SessionConflictError` and change nothing.
   */
  readonly expectedVersion?: number;
}

/**
 * A `Session` whose saves can be compare-and-set: `loadVersioned(key)` tells the version a
 * state is at, and `save(key, state, { expectedVersion })` stores only if nobody saved in
 * between, else rejects with `SessionConflictError`. `InMemorySession`, `JsonFileSession`
 * and `RedisSession` are versioned; durable runs use it so two processes never both advance
 * one run.
 */
export interface VersionedSession extends Session {
  /** The state under `key` with its version, or `undefined` when there is none. */
  loadVersioned(key: string): Promise<VersionedState | undefined>;
  /** Stores `state` under `key`; with `expectedVersion`, only if the key is at that version. */
  save(key: string, state: JsonObject, options?: SaveOptions): Promise<void>;
}

/** Whether `session` supports versioned saves (it has `loadVersioned`). */
export function isVersionedSession(session: Session): session is VersionedSession {
  return typeof (session as Partial<VersionedSession>).loadVersioned === 'function';
}

/** Throws `InvalidArgumentError` unless `options.expectedVersion` is absent or a whole number ≥ 0. */
export function checkExpectedVersion(options: SaveOptions | undefined, method: string): void {
  const expected = options?.expectedVersion;
  if (expected === undefined || (Number.isInteger(expected) && expected >= 0)) return;
  throw new InvalidArgumentError(
    `${method}: expectedVersion must be a whole number ≥ 0 (got ${String(expected)}); pass the version loadVersioned() returned, or 0 for a key not saved yet.`,
  );
}
