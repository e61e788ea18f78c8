import { createRequire } from 'node:module';
import { InvalidArgumentError, StoreUnavailableError } from '@rxagent/core';

/** Which SQLite binding runs the database: Node's built-in module, or the npm package. */
export type SqliteDriverName = 'node:sqlite' | 'better-sqlite3';

/** A value bound to a `?` parameter. */
export type SqliteParam = string | number | bigint | null | Uint8Array;

/** A row as both drivers return it. */
export type SqliteRow = Record<string, unknown>;

/** A prepared statement: the part of both drivers' statements used here. Internal. */
export interface SqliteStatement {
  run(...params: SqliteParam[]): { changes: number | bigint };
  get(...params: SqliteParam[]): SqliteRow | undefined;
  all(...params: SqliteParam[]): SqliteRow[];
}

/** An open database: the part of both drivers' databases used here. Internal. */
export interface SqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  close(): void;
}

interface NodeSqliteModule {
  DatabaseSync: new (path: string) => SqliteDatabase;
}

type BetterSqliteConstructor = new (path: string) => SqliteDatabase;

const require = createRequire(import.meta.url);

/**
 * The driver to use: Node's built-in `node:sqlite` where this runtime has it (Node ≥ 22.13
 * without a flag), else `better-sqlite3` (an optional peer dependency of this package). Throws
 * `InvalidArgumentError` naming what to install when neither can be loaded, or when the one
 * asked for cannot.
 */
export function pickDriver(wanted: SqliteDriverName | undefined, owner: string): SqliteDriverName {
  if (wanted !== undefined && wanted !== 'node:sqlite' && wanted !== 'better-sqlite3') {
    throw new InvalidArgumentError(
      `${owner}: driver must be 'node:sqlite' or 'better-sqlite3' (got ${JSON.stringify(wanted)}).`,
    );
  }
  if (wanted === 'node:sqlite' || (wanted === undefined && nodeSqlite() !== undefined)) {
    if (nodeSqlite() === undefined) {
      throw new InvalidArgumentError(
        `${owner}: this Node.js (${process.version}) has no node:sqlite (it needs Node ≥ 22.13); use driver 'better-sqlite3' or a newer Node.`,
      );
    }
    return 'node:sqlite';
  }
  betterSqlite(owner);
  return 'better-sqlite3';
}

/** Opens `path` with `driver`; throws `StoreUnavailableError` naming `store` when it cannot. */
export function openWith(driver: SqliteDriverName, path: string, store: string): SqliteDatabase {
  try {
    if (driver === 'node:sqlite') {
      const { DatabaseSync } = nodeSqlite() as NodeSqliteModule;
      return new DatabaseSync(path);
    }
    const Database = betterSqlite(store);
    return new Database(path);
  } catch (error) {
    throw new StoreUnavailableError(
      `${store}: cannot open the database ${JSON.stringify(path)} (${error instanceof Error ? error.message : String(error)}); check the path and its directory's permissions.`,
      store,
      { cause: error },
    );
  }
}

let builtin: NodeSqliteModule | null | undefined;

function nodeSqlite(): NodeSqliteModule | undefined {
  if (builtin === undefined) {
    // getBuiltinModule is synchronous and answers undefined where the module does not exist
    // (Node 20) or needs a flag (Node 22 before 22.13).
    const get = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
    let found: unknown;
    try {
      found = get?.call(process, 'node:sqlite');
    } catch {
      found = undefined;
    }
    builtin = (found as NodeSqliteModule | undefined) ?? null;
  }
  return builtin ?? undefined;
}

let better: BetterSqliteConstructor | undefined;

function betterSqlite(owner: string): BetterSqliteConstructor {
  if (better !== undefined) return better;
  try {
    better = require('better-sqlite3') as BetterSqliteConstructor;
    return better;
  } catch (error) {
    throw new InvalidArgumentError(
      `${owner}: no SQLite driver: this Node.js (${process.version}) has no node:sqlite (Node ≥ 22.13 has), and better-sqlite3 could not be loaded (${error instanceof Error ? error.message : String(error)}). Install it (npm i better-sqlite3@12; it builds from source where no prebuilt binary fits) or use Node ≥ 22.13.`,
      { cause: error },
    );
  }
}
