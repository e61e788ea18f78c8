/**
 * The SQLite store of react-agent's durable crash harness (its `WorldStore` module): each
 * world's session is a `SqliteSession` on a file of its own in the directory given.
 */
import { join } from 'node:path';
import { SqliteSession } from '@rxagent/sqlite';

/** A `SqliteSession` on `<dir>/<prefix>.db`, which every process of the world shares. */
export function openSession(dir: string, prefix: string): SqliteSession {
  return new SqliteSession({ path: join(dir, `${prefix}.db`) });
}
