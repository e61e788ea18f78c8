import { StoreUnavailableError } from '@rxagent/core';
import type { SqliteDatabase } from './sqliteDriver.js';

/** The table that records which numbered migrations ran, per table they created. */
export const MIGRATIONS_TABLE = 'rxagent_migrations';

/** One numbered migration: the statements that take a table's schema from `version - 1`. */
export interface Migration {
  readonly version: number;
  readonly description: string;
  readonly sql: string;
}

/**
 * A database written by a newer `@rxagent/sqlite` than this one: its schema for `target` is
 * at a version this package does not know. Nothing is written to it.
 */
export function schemaTooNew(store: string, target: string, found: number, known: number) {
  return new StoreUnavailableError(
    `${store}: the database's schema of "${target}" is at version ${found}, newer than this @rxagent/sqlite knows (${known}); a newer version of the package wrote it. Upgrade @rxagent/sqlite; nothing was written.`,
    store,
  );
}

/**
 * Brings `target`'s schema up to the last of `migrations`, recording each in
 * `rxagent_migrations`: read first (an up-to-date or newer schema costs no write lock, and a
 * newer one throws without writing), then, when some are missing, in one `BEGIN IMMEDIATE`
 * transaction that reads the version again, so processes starting at once apply each
 * migration once (the others wait on the lock, then find it done).
 */
export function migrate(
  db: SqliteDatabase,
  target: string,
  migrations: readonly Migration[],
  store: string,
): void {
  const known = migrations.at(-1)?.version ?? 0;
  const current = readVersion(db, target);
  if (current > known) throw schemaTooNew(store, target, current, known);
  if (current === known) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (target TEXT NOT NULL, version INTEGER NOT NULL, description TEXT NOT NULL, applied_at TEXT NOT NULL, PRIMARY KEY (target, version))`,
    );
    const now = readVersion(db, target);
    if (now > known) throw schemaTooNew(store, target, now, known);
    const record = db.prepare(
      `INSERT INTO ${MIGRATIONS_TABLE} (target, version, description, applied_at) VALUES (?, ?, ?, ?)`,
    );
    for (const migration of migrations) {
      if (migration.version <= now) continue;
      db.exec(migration.sql);
      record.run(target, migration.version, migration.description, new Date().toISOString());
    }
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

function readVersion(db: SqliteDatabase, target: string): number {
  const exists = db
    .prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?")
    .get(MIGRATIONS_TABLE);
  if (exists === undefined) return 0;
  const row = db
    .prepare(`SELECT MAX(version) AS version FROM ${MIGRATIONS_TABLE} WHERE target = ?`)
    .get(target);
  return Number(row?.['version'] ?? 0);
}
