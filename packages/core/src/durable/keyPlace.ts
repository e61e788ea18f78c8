import { SessionCorruptError, StateError } from '../errors.js';
import type { Session } from '../state/session.js';

/** A session that can tell the file holding a key (`JsonFileSession`). */
interface FileSession extends Session {
  pathFor(key: string): string;
}

function isFileSession(session: Session): session is FileSession {
  return typeof (session as Partial<FileSession>).pathFor === 'function';
}

/**
 * Where `key` is stored, for a message: `session key "<key>"` as given (not its encoded
 * file name), then the file's path when the session keeps a file per key.
 */
export function keyPlace(session: Session, key: string): string {
  const named = `session key ${JSON.stringify(key)}`;
  if (!isFileSession(session)) return named;
  try {
    return `${named} (file ${session.pathFor(key)})`;
  } catch {
    return named;
  }
}

/**
 * `error`, a failure to load what `session` holds under `key` into an agent (a malformed
 * checkpoint or state), as the same kind of error whose message starts with where that is
 * (see `keyPlace`), so whoever reads it knows which key and file to repair; the original
 * error stays its `cause`. Other errors are returned as they are.
 */
export function loadError(error: unknown, session: Session, key: string): unknown {
  const place = keyPlace(session, key);
  if (!(error instanceof StateError || error instanceof SessionCorruptError)) return error;
  if (error.message.includes(place)) return error;
  const message = `Cannot load ${place}: ${error.message}`;
  return error instanceof StateError
    ? new StateError(message, error.path, { cause: error })
    : new SessionCorruptError(message, error.path, { cause: error });
}
