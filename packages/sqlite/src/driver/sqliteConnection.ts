import { AgentError, InvalidArgumentError } from '@rxagent/core';
import { type Migration, migrate } from './migrations.js';
import {
  openWith,
  pickDriver,
  type SqliteDatabase,
  type SqliteDriverName,
  type SqliteStatement,
} from './sqliteDriver.js';
import { isUnavailable, sqliteCode, unavailable } from './sqliteErrors.js';

/** Options every SQLite store takes. */
export interface SqliteConnectionOptions {
  /** The database file, or `':memory:'` (the default: gone with the process). */
  readonly path?: string;
  /**
   * How long a call waits for another connection's write lock before failing with
   * `StoreUnavailableError` (default 5,000 ms): the processes sharing a file take turns.
   */
  readonly busyTimeoutMs?: number;
  /** The driver (default: `node:sqlite` where the runtime has it, else `better-sqlite3`). */
  readonly driver?: SqliteDriverName;
}

/** The tables a store creates: the target name its migrations are recorded under, and them. */
export interface SqliteSchema {
  readonly target: string;
  readonly migrations: readonly Migration[];
}

/**
 * One connection to a SQLite database, opened on first use: WAL (readers never wait for the
 * writer, several processes share one file), `synchronous = NORMAL` (a commit survives the
 * process being killed; WAL's documented trade-off for a power loss is the last commits, never
 * corruption), a busy timeout, the schema migrated. A failure that says the database is
 * unavailable (busy past the timeout, cannot open, I/O) becomes `StoreUnavailableError`
 * naming the store, and the connection is dropped, so the next call opens it again. Internal.
 */
export class SqliteConnection {
  readonly path: string;
  readonly driver: SqliteDriverName;
  readonly #store: string;
  readonly #busyTimeoutMs: number;
  readonly #schema: SqliteSchema;
  #db: SqliteDatabase | undefined;
  #statements = new Map<string, SqliteStatement>();
  #closed = false;

  constructor(options: SqliteConnectionOptions, schema: SqliteSchema, owner: string) {
    const path = options.path ?? ':memory:';
    if (typeof path !== 'string' || path === '') {
      throw new InvalidArgumentError(
        `new ${owner}(options): path must be a file path or ':memory:' (got ${JSON.stringify(path)}).`,
      );
    }
    const busy = options.busyTimeoutMs ?? 5000;
    if (!Number.isInteger(busy) || busy < 0) {
      throw new InvalidArgumentError(
        `new ${owner}(options): busyTimeoutMs must be a whole number of ms ≥ 0 (got ${String(busy)}).`,
      );
    }
    this.path = path;
    this.driver = pickDriver(options.driver, `new ${owner}(options)`);
    this.#store = `${owner}(${path})`;
    this.#busyTimeoutMs = busy;
    this.#schema = schema;
  }

  /** The name errors give the store: its class and path. */
  get store(): string {
    return this.#store;
  }

  /**
   * Runs `work` on the open database (opening it first); a driver error that says the
   * database is unavailable becomes `StoreUnavailableError` naming the store and `doing`.
   */
  use<T>(doing: string, work: (db: SqliteDatabase) => T): T {
    if (this.#closed) {
      throw new InvalidArgumentError(
        `${this.#store}: closed; create a new one to use the database again.`,
      );
    }
    try {
      return work(this.#open());
    } catch (error) {
      if (error instanceof AgentError) throw error;
      if (!isUnavailable(error)) throw error;
      // A file is opened again by the next call; a memory database would be a new, empty one.
      if (this.path !== ':memory:') this.#drop();
      throw unavailable(error, this.#store, doing);
    }
  }

  /** The prepared statement of `sql` on the open database (prepared once per connection). */
  statement(db: SqliteDatabase, sql: string): SqliteStatement {
    let prepared = this.#statements.get(sql);
    if (prepared === undefined) {
      prepared = db.prepare(sql);
      this.#statements.set(sql, prepared);
    }
    return prepared;
  }

  /** Closes the connection; later calls fail. Idempotent. */
  close(): void {
    this.#closed = true;
    this.#drop();
  }

  #open(): SqliteDatabase {
    if (this.#db !== undefined) return this.#db;
    const db = openWith(this.driver, this.path, this.#store);
    try {
      db.exec(`PRAGMA busy_timeout = ${this.#busyTimeoutMs}`);
      if (this.path !== ':memory:') {
        execWhileBusy(db, 'PRAGMA journal_mode = WAL', this.#busyTimeoutMs);
        db.exec('PRAGMA synchronous = NORMAL');
      }
      migrate(db, this.#schema.target, this.#schema.migrations, this.#store);
    } catch (error) {
      db.close();
      throw error;
    }
    this.#db = db;
    return db;
  }

  #drop(): void {
    const db = this.#db;
    this.#db = undefined;
    this.#statements = new Map();
    try {
      db?.close();
    } catch {
      // Already unusable: nothing more to release.
    }
  }
}

/** What `pauseFor` waits on: nothing ever notifies it, so a wait lasts its whole timeout. */
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `sql`, again while SQLite answers SQLITE_BUSY, for up to `timeoutMs`. Switching a new
 * file to WAL takes an exclusive lock, and when several processes open the file at once
 * SQLite refuses that upgrade at once (it would deadlock waiting) instead of calling the busy
 * handler, so `busy_timeout` does not cover it. Blocking, like the driver's own busy wait.
 */
export function execWhileBusy(db: SqliteDatabase, sql: string, timeoutMs: number): void {
  const deadline = Date.now() + timeoutMs;
  for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
    try {
      db.exec(sql);
      return;
    } catch (error) {
      if (!sqliteCode(error)?.startsWith('SQLITE_BUSY') || Date.now() >= deadline) throw error;
      Atomics.wait(PAUSE, 0, 0, pause);
    }
  }
}
