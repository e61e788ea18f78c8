import { StoreUnavailableError } from '@rxagent/core';

// SQLite's primary result codes of a database that is busy, gone or unusable: a call may
// work again once the file, its directory, the disk or the other writer is back.
const UNAVAILABLE = new Map<number, string>([
  [5, 'SQLITE_BUSY'],
  [6, 'SQLITE_LOCKED'],
  [8, 'SQLITE_READONLY'],
  [10, 'SQLITE_IOERR'],
  [13, 'SQLITE_FULL'],
  [14, 'SQLITE_CANTOPEN'],
  [26, 'SQLITE_NOTADB'],
  [11, 'SQLITE_CORRUPT'],
]);

/** The SQLite result code name of a driver error (both drivers), if it has one. */
export function sqliteCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  // better-sqlite3: `code` is the name ("SQLITE_BUSY_SNAPSHOT"); node:sqlite: `errcode` is
  // the extended number, its low byte the primary code.
  if (typeof code === 'string' && code.startsWith('SQLITE_')) return code;
  if (typeof errcode === 'number') return UNAVAILABLE.get(errcode & 0xff) ?? `SQLITE_${errcode}`;
  return undefined;
}

/** Whether `error` says the database itself is unavailable (not that a statement was wrong). */
export function isUnavailable(error: unknown): boolean {
  const code = sqliteCode(error);
  if (code !== undefined && [...UNAVAILABLE.values()].some((name) => code.startsWith(name)))
    return true;
  // A connection closed under us (both drivers say so in the message only).
  return (
    error instanceof Error &&
    /database is not open|database connection is not open|The database connection is not open/i.test(
      error.message,
    )
  );
}

/** `error` as a `StoreUnavailableError` naming `store` and what was being done. */
export function unavailable(error: unknown, store: string, doing: string): StoreUnavailableError {
  const detail = error instanceof Error ? error.message : String(error);
  return new StoreUnavailableError(
    `${store}: the database is unavailable while ${doing} (${sqliteCode(error) ?? 'error'}: ${detail}); the next call tries again.`,
    store,
    { cause: error },
  );
}
