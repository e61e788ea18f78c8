import { SessionCorruptError } from '../errors.js';
import type { JsonValue } from '../json.js';
import type { Session } from '../state/session.js';
import { isVersionedSession } from '../state/versionedSession.js';
import { type Checkpoint, type CheckpointHead, readHead } from './checkpoint.js';
import { joinState, readSegment, segmentOwner } from './segments.js';

/** A checkpoint as loaded: its head, its version and the messages of its segments. */
export interface LoadedCheckpoint {
  readonly head: CheckpointHead;
  /** The head's version (0 for a session that is not versioned). */
  readonly version: number;
  /** Each segment's messages by key. */
  readonly blocks: ReadonlyMap<string, JsonValue[]>;
  readonly checkpoint: Checkpoint;
}

// A head that changed while its segments were read is read again, up to this many times.
const MAX_ATTEMPTS = 4;

/**
 * Loads the checkpoint under `key`: its head, then its segments. When a segment is missing
 * because another process advanced the run meanwhile (the head's version changed), reads
 * again. Rejects with `SessionCorruptError` naming a segment that is missing or malformed.
 */
export async function loadStored(
  session: Session,
  key: string,
): Promise<LoadedCheckpoint | undefined> {
  for (let attempt = 1; ; attempt++) {
    const saved = await loadHeadJson(session, key);
    if (saved === undefined) return undefined;
    const head = readHead(key, saved.state);
    const keys = head.sealed.flatMap((list) => list.keys);
    try {
      const values = await Promise.all(keys.map((k) => session.load(k)));
      const blocks = new Map(keys.map((k, i) => [k, readSegment(k, values[i])]));
      const state = joinState(head.state, head.sealed, blocks);
      const checkpoint: Checkpoint = head.call ? { state, call: head.call } : { state };
      return { head, version: saved.version, blocks, checkpoint };
    } catch (error) {
      if (!(error instanceof SessionCorruptError) || attempt >= MAX_ATTEMPTS) throw error;
      const now = await loadHeadJson(session, key);
      if (now === undefined || now.version === saved.version) throw error;
    }
  }
}

async function loadHeadJson(session: Session, key: string) {
  if (isVersionedSession(session)) return session.loadVersioned(key);
  const state = await session.load(key);
  return state && { state, version: 0 };
}

/**
 * The checkpoint a durable agent saved under `key` in `session`, its state whole again (the
 * messages of its sealed segments put back), or `undefined` when there is none. A plain
 * state (saved with `session.save(key, agent.stateDict())`) is a checkpoint without a call.
 * Rejects with the session's error, or `SessionCorruptError` naming a missing or malformed
 * segment.
 *
 * @example
 * ```ts
 * const session = new JsonFileSession('./runs');
 * const saved = await loadCheckpoint(session, 'order-42');
 * console.log(saved?.call?.status, saved?.state);
 * ```
 */
export async function loadCheckpoint(
  session: Session,
  key: string,
): Promise<Checkpoint | undefined> {
  return (await loadStored(session, key))?.checkpoint;
}

/**
 * Deletes the checkpoint under durable key `key` and every segment of it (`<key>~seg.…`),
 * also those a lost race or a crash left unreferenced: the head first, so no head ever
 * refers to a deleted segment. Do not delete a key whose run is in flight.
 */
export async function deleteCheckpoint(session: Session, key: string): Promise<void> {
  await session.delete(key);
  const keys = await session.list();
  await Promise.all(keys.filter((k) => segmentOwner(k) === key).map((k) => session.delete(k)));
}
