import type { JsonObject } from '../json.js';
import type { Session } from './session.js';

/** A segment of a checkpoint to save in a batch: its key and value. */
export interface CheckpointWrite {
  readonly key: string;
  readonly value: JsonObject;
}

/**
 * What a session that can save a durable checkpoint's writes in one step of its store
 * offers (`SqliteSession`: one transaction): the segments, then the head under `key` at
 * `expectedVersion`, then the deletes of the segments the head no longer refers to, all or
 * nothing. A conflict rejects with `SessionConflictError` and changes nothing (no segment
 * left behind); any other failure rejects as the session's `save` would.
 */
export interface CheckpointBatch {
  saveCheckpoint(
    writes: readonly CheckpointWrite[],
    key: string,
    head: JsonObject,
    expectedVersion: number,
    deletes: readonly string[],
  ): Promise<void>;
}

interface Registered {
  readonly batch: CheckpointBatch;
  readonly intact: (session: Session) => boolean;
}

const batches = new WeakMap<Session, Registered>();

/**
 * Registers `session`'s checkpoint batch (a session package does, in its constructor), so a
 * durable agent saves each checkpoint in one step of the store instead of one save per
 * segment, head and delete. `intact(session)`: whether the session still runs the methods
 * the batch does the work of (a subclass's override or a spy must run instead).
 *
 * @example
 * ```ts
 * class MySession extends InMemorySession {}
 * const session = new MySession();
 * registerCheckpointBatch(session, { saveCheckpoint: async () => {} }, () => false);
 * ```
 */
export function registerCheckpointBatch(
  session: Session,
  batch: CheckpointBatch,
  intact: (session: Session) => boolean,
): void {
  batches.set(session, { batch, intact });
}

/** `session`'s checkpoint batch, or `undefined` (none registered, or its methods replaced). */
export function checkpointBatchOf(session: Session): CheckpointBatch | undefined {
  const registered = batches.get(session);
  return registered?.intact(session) ? registered.batch : undefined;
}
