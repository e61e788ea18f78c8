import { describe, expect, it } from 'vitest';
import { execWhileBusy } from './sqliteConnection.js';
import type { SqliteDatabase } from './sqliteDriver.js';

/** A database whose `exec` fails with `error` the first `failures` times. */
function flaky(failures: number, error: () => Error): { db: SqliteDatabase; calls: () => number } {
  let calls = 0;
  const db = {
    exec: () => {
      calls++;
      if (calls <= failures) throw error();
    },
  } as unknown as SqliteDatabase;
  return { db, calls: () => calls };
}

const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
// node:sqlite reports the extended result code as a number (5: SQLITE_BUSY).
const busyNodeSqlite = () => Object.assign(new Error('database is locked'), { errcode: 5 });

describe('execWhileBusy (switching a file to WAL while other processes open it)', () => {
  it('runs the statement again while SQLite answers SQLITE_BUSY without waiting', () => {
    const better = flaky(4, busy);
    execWhileBusy(better.db, 'PRAGMA journal_mode = WAL', 5_000);
    expect(better.calls()).toBe(5);
    const node = flaky(2, busyNodeSqlite);
    execWhileBusy(node.db, 'PRAGMA journal_mode = WAL', 5_000);
    expect(node.calls()).toBe(3);
  });

  it('gives up with the busy error once the timeout has passed', () => {
    const always = flaky(Number.POSITIVE_INFINITY, busy);
    const started = Date.now();
    expect(() => execWhileBusy(always.db, 'PRAGMA journal_mode = WAL', 60)).toThrow(
      'database is locked',
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(60);
    expect(always.calls()).toBeGreaterThan(1);
  });

  it('does not retry any other error', () => {
    const broken = flaky(1, () =>
      Object.assign(new Error('not a database'), { code: 'SQLITE_NOTADB' }),
    );
    expect(() => execWhileBusy(broken.db, 'PRAGMA journal_mode = WAL', 5_000)).toThrow(
      'not a database',
    );
    expect(broken.calls()).toBe(1);
  });
});
