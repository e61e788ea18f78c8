import { openWith, pickDriver, type SqliteDatabase } from '../src/driver/sqliteDriver.js';

/** A connection of its own to `path`, as another program would open it. */
export function rawDatabase(path: string): SqliteDatabase {
  return openWith(pickDriver(undefined, 'test'), path, 'test');
}
