import type { Session } from '../state/session.js';
import { isUnfinished } from './checkpoint.js';

/**
 * The keys of `session` whose checkpoint holds an unfinished call (its process stopped
 * mid-call), sorted: what a restarted process recovers, each with a durable agent of that
 * key and `agent.recover()`. Keys holding plain states or finished calls are left out.
 * Rejects with the session's error (a corrupt entry's `SessionCorruptError` included).
 */
export async function unfinishedRuns(session: Session): Promise<string[]> {
  const keys = await session.list();
  const states = await Promise.all(keys.map((key) => session.load(key)));
  return keys.filter((_, index) => isUnfinished(states[index]));
}
