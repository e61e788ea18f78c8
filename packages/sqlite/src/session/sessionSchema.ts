import type { SqliteSchema } from '../driver/sqliteConnection.js';

/**
 * The numbered migrations of a session table. Never edit one that shipped: add the next.
 * 1: one row per key, its version (1 after the first save) and its state's JSON text.
 */
export function sessionSchema(table: string): SqliteSchema {
  return {
    target: table,
    migrations: [
      {
        version: 1,
        description: 'session table: key, version, state, updated_at',
        sql: `CREATE TABLE ${table} (key TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL, state TEXT NOT NULL, updated_at TEXT NOT NULL) WITHOUT ROWID`,
      },
    ],
  };
}
