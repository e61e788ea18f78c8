import type { Session } from '../state/session.js';
import { isUnfinished } from './checkpoint.js';
import { segmentOwner } from './segments.js';

/**
 * The keys of `session` whose checkpoint holds an unfinished call (its process stopped
 * mid-call), sorted: what a restarted process recovers, each with a durable agent of that
 * key and `agent.recover()`. Keys holding plain states or finished calls are left out, and
 * so are the segment keys of a checkpoint (see `DurableOptions.segmentSize`).
 * Rejects with the session's error (a corrupt entry's `SessionCorruptError` included).
 */
export async function unfinishedRuns(session: Session): Promise<string[]> {
  const listed = await session.list();
  // A checkpoint's segments (`<key>~seg.…`) are parts of it, never runs of their own.
  const all = new Set(listed);
  const keys = listed.filter((key) => {
    const owner = segmentOwner(key);
    return owner === undefined || !all.has(owner);
  });
  const states = await Promise.all(keys.map((key) => session.load(key)));
  return keys.filter((key, index) => isUnfinished(key, states[index]));
}
