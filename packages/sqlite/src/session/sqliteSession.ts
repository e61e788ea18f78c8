import {
  assertJsonState,
  assertSessionKey,
  type CheckpointWrite,
  checkExpectedVersion,
  checkOptions,
  isJsonObject,
  type JsonObject,
  optionNames,
  registerCheckpointBatch,
  type SaveOptions,
  type Session,
  SessionConflictError,
  SessionCorruptError,
  type VersionedSession,
  type VersionedState,
} from '@rxagent/core';
import { SqliteConnection, type SqliteConnectionOptions } from '../driver/sqliteConnection.js';
import type { SqliteDriverName } from '../driver/sqliteDriver.js';
import { checkTableName } from '../driver/tableName.js';
import { sessionSchema } from './sessionSchema.js';

/** Options of `new SqliteSession()`. */
export interface SqliteSessionOptions extends SqliteConnectionOptions {
  /** The table holding the sessions (default `"rxagent_sessions"`); a plain SQL name. */
  readonly table?: string;
}

const KEYS = optionNames<SqliteSessionOptions>({
  path: true,
  table: true,
  busyTimeoutMs: true,
  driver: true,
});

const RECOVER = 'Delete the key to start fresh, or restore the database from a backup.';

/**
 * A versioned `Session` in a SQLite database: one row per key in `table`, created on first
 * use by numbered migrations (recorded in `rxagent_migrations`). A file in WAL mode is shared
 * safely by the processes of one machine; `':memory:'` (the default) lives as long as the
 * session. Runs on Node's built-in `node:sqlite` where the runtime has it, else on
 * `better-sqlite3`.
 *
 * A versioned save is one SQL statement, a compare-and-set (`UPDATE … WHERE version = ?`, or
 * an insert that does nothing when the key exists): of two processes that loaded version 3,
 * exactly one saves version 4 and the other rejects with `SessionConflictError`, changing
 * nothing. Keys are always bound as parameters. A row that cannot be read back rejects with
 * `SessionCorruptError` naming the key; a database that is unavailable (locked past
 * `busyTimeoutMs`, cannot be opened, an I/O error) with `StoreUnavailableError` naming the
 * store, and the next call opens it again. A database whose schema a newer version of this
 * package wrote fails every call with `StoreUnavailableError` saying so, and is never written.
 *
 * @example
 * ```ts
 * const session = new SqliteSession({ path: './agent.db' });
 * const agent = new ReActAgent({ name: 'shop', sysPrompt, model, durable: { session, key: 'order-42' } });
 * ```
 */
export class SqliteSession implements VersionedSession {
  /** The table holding the sessions. */
  readonly table: string;
  readonly #db: SqliteConnection;
  readonly #sql: Readonly<
    Record<'save' | 'create' | 'update' | 'load' | 'version' | 'delete' | 'list', string>
  >;

  constructor(options: SqliteSessionOptions = {}) {
    checkOptions(options, KEYS, 'SqliteSession');
    const table = checkTableName(options.table ?? 'rxagent_sessions', 'SqliteSession');
    this.table = table;
    this.#db = new SqliteConnection(options, sessionSchema(table), 'SqliteSession');
    this.#sql = {
      save: `INSERT INTO ${table} (key, version, state, updated_at) VALUES (?, 1, ?, ?) ON CONFLICT (key) DO UPDATE SET version = version + 1, state = excluded.state, updated_at = excluded.updated_at`,
      create: `INSERT INTO ${table} (key, version, state, updated_at) VALUES (?, 1, ?, ?) ON CONFLICT (key) DO NOTHING`,
      update: `UPDATE ${table} SET version = version + 1, state = ?, updated_at = ? WHERE key = ? AND version = ?`,
      load: `SELECT version, state FROM ${table} WHERE key = ?`,
      version: `SELECT version FROM ${table} WHERE key = ?`,
      delete: `DELETE FROM ${table} WHERE key = ?`,
      list: `SELECT key FROM ${table}`,
    };
    registerCheckpointBatch(
      this,
      { saveCheckpoint: async (...args) => this.#saveCheckpoint(...args) },
      intact,
    );
  }

  /** The database file (or `':memory:'`). */
  get path(): string {
    return this.#db.path;
  }

  /** The driver this session runs on. */
  get driver(): SqliteDriverName {
    return this.#db.driver;
  }

  /**
   * Stores `state` under `key`. With `expectedVersion`, only if the key is at that version
   * (0: not saved yet), else rejects with `SessionConflictError`, changing nothing. Rejects
   * with `InvalidArgumentError` for a bad key, state or version before touching the database.
   */
  async save(key: string, state: JsonObject, options?: SaveOptions): Promise<void> {
    const method = 'SqliteSession.save()';
    assertSessionKey(key, method);
    assertJsonState(state, method);
    checkOptions(options, ['expectedVersion'], method);
    checkExpectedVersion(options, method);
    const json = JSON.stringify(state);
    const now = new Date().toISOString();
    const expected = options?.expectedVersion;
    const db = this.#db;
    db.use(`saving ${JSON.stringify(key)}`, (conn) => {
      if (expected === undefined) {
        db.statement(conn, this.#sql.save).run(key, json, now);
        return;
      }
      // One statement: the compare and the write are one step of the database.
      const { changes } =
        expected === 0
          ? db.statement(conn, this.#sql.create).run(key, json, now)
          : db.statement(conn, this.#sql.update).run(json, now, key, expected);
      if (Number(changes) === 1) return;
      // Lost: read the version only to say what it is.
      const row = db.statement(conn, this.#sql.version).get(key);
      throw new SessionConflictError(key, expected, Number(row?.['version'] ?? 0));
    });
  }

  /**
   * A durable checkpoint in one transaction: its new segments, its head at `expectedVersion`
   * (a conflict rolls everything back), and the deletes of the segments it dropped. One
   * commit a checkpoint instead of one per segment, head and delete.
   */
  #saveCheckpoint(
    writes: readonly CheckpointWrite[],
    key: string,
    head: JsonObject,
    expected: number,
    deletes: readonly string[],
  ): void {
    const method = 'SqliteSession.save()';
    for (const write of writes) {
      assertSessionKey(write.key, method);
      assertJsonState(write.value, method);
    }
    assertSessionKey(key, method);
    assertJsonState(head, method);
    checkExpectedVersion({ expectedVersion: expected }, method);
    const texts = writes.map((write) => JSON.stringify(write.value));
    const json = JSON.stringify(head);
    const now = new Date().toISOString();
    const db = this.#db;
    const sql = this.#sql;
    db.use(`saving ${JSON.stringify(key)}`, (conn) => {
      conn.exec('BEGIN IMMEDIATE');
      try {
        for (const [i, write] of writes.entries())
          db.statement(conn, sql.save).run(write.key, texts[i] as string, now);
        const { changes } =
          expected === 0
            ? db.statement(conn, sql.create).run(key, json, now)
            : db.statement(conn, sql.update).run(json, now, key, expected);
        if (Number(changes) !== 1) {
          const row = db.statement(conn, sql.version).get(key);
          throw new SessionConflictError(key, expected, Number(row?.['version'] ?? 0));
        }
        for (const gone of deletes) db.statement(conn, sql.delete).run(gone);
        conn.exec('COMMIT');
      } catch (error) {
        try {
          conn.exec('ROLLBACK');
        } catch {
          // SQLite rolled back already (some errors end the transaction): the error is the news.
        }
        throw error;
      }
    });
  }

  /** The state saved under `key`, as a fresh object, or `undefined`. */
  async load(key: string): Promise<JsonObject | undefined> {
    assertSessionKey(key, 'SqliteSession.load()');
    return this.#read(key)?.state;
  }

  /** The state saved under `key` with its version (for `save`'s `expectedVersion`), or `undefined`. */
  async loadVersioned(key: string): Promise<VersionedState | undefined> {
    assertSessionKey(key, 'SqliteSession.loadVersioned()');
    return this.#read(key);
  }

  /** Deletes `key` (no-op when absent). */
  async delete(key: string): Promise<void> {
    assertSessionKey(key, 'SqliteSession.delete()');
    const db = this.#db;
    db.use(`deleting ${JSON.stringify(key)}`, (conn) => {
      db.statement(conn, this.#sql.delete).run(key);
    });
  }

  /** Every saved key, sorted as JavaScript sorts strings (not by the database's collation). */
  async list(): Promise<string[]> {
    const db = this.#db;
    const rows = db.use('listing keys', (conn) => db.statement(conn, this.#sql.list).all());
    return rows.map((row) => String(row['key'])).sort();
  }

  /** Closes the database connection; later calls fail. Idempotent. */
  async close(): Promise<void> {
    this.#db.close();
  }

  #read(key: string): VersionedState | undefined {
    const db = this.#db;
    const row = db.use(`loading ${JSON.stringify(key)}`, (conn) =>
      db.statement(conn, this.#sql.load).get(key),
    );
    if (row === undefined) return undefined;
    return parseRow(row, key, `${db.store} table ${this.table}`);
  }
}

const { save, loadVersioned, delete: remove } = SqliteSession.prototype;

/** Whether `session` still runs SqliteSession's own save, loadVersioned and delete. */
function intact(session: Session): boolean {
  const own = session as SqliteSession;
  return own.save === save && own.loadVersioned === loadVersioned && own.delete === remove;
}

function parseRow(row: Record<string, unknown>, key: string, where: string): VersionedState {
  const version = Number(row['version']);
  const text = row['state'];
  if (!Number.isInteger(version) || version < 1 || typeof text !== 'string') {
    throw new SessionCorruptError(
      `${where}: the row of key ${JSON.stringify(key)} has no valid version or state (written by something else?). ${RECOVER}`,
      key,
    );
  }
  let state: unknown;
  try {
    state = JSON.parse(text);
  } catch (error) {
    throw new SessionCorruptError(
      `${where}: the row of key ${JSON.stringify(key)} does not hold valid JSON (${error instanceof Error ? error.message : String(error)}). ${RECOVER}`,
      key,
      { cause: error },
    );
  }
  if (!isJsonObject(state)) {
    throw new SessionCorruptError(
      `${where}: the row of key ${JSON.stringify(key)} does not hold a JSON object. ${RECOVER}`,
      key,
    );
  }
  return { state, version };
}
