import {
  assertJsonState,
  assertSessionKey,
  checkExpectedVersion,
  checkOptions,
  isJsonObject,
  type JsonObject,
  optionNames,
  type SaveOptions,
  SessionConflictError,
  SessionCorruptError,
  type VersionedSession,
  type VersionedState,
} from '@rxagent/core';
import {
  PostgresConnection,
  type PostgresConnectionOptions,
} from '../connection/postgresConnection.js';
import { assertKeySize, decodeText, encodeText } from '../encoding/textEncoding.js';

/** Options of `new PostgresSession()`. */
export type PostgresSessionOptions = PostgresConnectionOptions;

const OPTION_KEYS = optionNames<PostgresSessionOptions>({
  connectionString: true,
  pool: true,
  schema: true,
  timeoutMs: true,
});

const RECOVER = 'Delete the key to start fresh, or restore the row from a backup.';

/**
 * A versioned `Session` in PostgreSQL, shared by every process that uses the same database
 * and schema: one row per key in `<schema>.sessions` (the state as JSON text, byte for byte,
 * and its version). Tables are created on first use by numbered migrations.
 *
 * Every save is one statement, one round trip: an upsert that bumps the version, or with
 * `expectedVersion` a compare-and-set in SQL (`INSERT … ON CONFLICT DO NOTHING` for 0, an
 * `UPDATE … WHERE version = $n` otherwise), so of two processes that loaded version 3 and
 * save at once one wins (version 4) and the other rejects with `SessionConflictError`. Keys
 * are always bound parameters; a key holding NUL (which `text` cannot) is stored encoded.
 * `list()` sorts in JavaScript, so the order is JavaScript's whatever the database's
 * collation. A row that cannot be read back rejects with `SessionCorruptError` naming the
 * key; a database that is down rejects with `StoreUnavailableError`, and the next call
 * connects again. Durable runs keep their sealed segments as rows of their own, so a long
 * conversation's checkpoints stay the same size.
 *
 * @example
 * ```ts
 * const session = new PostgresSession({ connectionString: process.env['DATABASE_URL'] });
 * const saved = await session.loadVersioned('alice');
 * await session.save('alice', { turns: 1 }, { expectedVersion: saved?.version ?? 0 });
 * await session.close();
 * ```
 */
export class PostgresSession implements VersionedSession {
  readonly #db: PostgresConnection;
  readonly #table: string;

  constructor(options: PostgresSessionOptions = {}) {
    checkOptions(options, OPTION_KEYS, 'PostgresSession');
    this.#db = new PostgresConnection(options, 'PostgresSession');
    this.#table = `"${this.#db.schema}".sessions`;
  }

  /** The schema holding the `sessions` table. */
  get schema(): string {
    return this.#db.schema;
  }

  /**
   * Stores `state` under `key` in one statement. With `expectedVersion`, rejects with
   * `SessionConflictError` (changing nothing) when the key is at another version.
   */
  async save(key: string, state: JsonObject, options: SaveOptions = {}): Promise<void> {
    await this.#save(key, state, options, 'PostgresSession.save()');
  }

  /** Like `save()`, and resolves with the key's new version (for the next `expectedVersion`). */
  saveVersioned(key: string, state: JsonObject, options: SaveOptions = {}): Promise<number> {
    return this.#save(key, state, options, 'PostgresSession.saveVersioned()');
  }

  async #save(
    key: string,
    state: JsonObject,
    options: SaveOptions,
    method: string,
  ): Promise<number> {
    assertSessionKey(key, method);
    assertKeySize([key], method);
    assertJsonState(state, method);
    checkOptions(options, ['expectedVersion'], method);
    checkExpectedVersion(options, method);
    const expected = options.expectedVersion;
    const stored = encodeText(key);
    const text = JSON.stringify(state);
    const what = `saving ${JSON.stringify(key)}`;
    const t = this.#table;
    const result =
      expected === undefined
        ? await this.#db.query<{ version: string }>(
            `INSERT INTO ${t} AS s (key, version, state) VALUES ($1, 1, $2)
             ON CONFLICT (key) DO UPDATE SET version = s.version + 1, state = EXCLUDED.state, updated_at = now()
             RETURNING version`,
            [stored, text],
            what,
          )
        : expected === 0
          ? await this.#db.query<{ version: string }>(
              `INSERT INTO ${t} (key, version, state) VALUES ($1, 1, $2)
               ON CONFLICT (key) DO NOTHING RETURNING version`,
              [stored, text],
              what,
            )
          : await this.#db.query<{ version: string }>(
              `UPDATE ${t} SET version = version + 1, state = $2, updated_at = now()
               WHERE key = $1 AND version = $3 RETURNING version`,
              [stored, text, expected],
              what,
            );
    const row = result.rows[0];
    if (row !== undefined) return Number(row.version);
    // The compare-and-set changed nothing: read the version it met, to say so.
    const current = await this.#db.query<{ version: string }>(
      `SELECT version FROM ${t} WHERE key = $1`,
      [stored],
      `reading the version of ${JSON.stringify(key)}`,
    );
    throw new SessionConflictError(key, expected ?? 0, Number(current.rows[0]?.version ?? 0));
  }

  /** The state saved under `key`, as a fresh object, or `undefined` when there is none. */
  async load(key: string): Promise<JsonObject | undefined> {
    assertSessionKey(key, 'PostgresSession.load()');
    return (await this.#read(key))?.state;
  }

  /** The state under `key` with its version, or `undefined` when there is none. */
  async loadVersioned(key: string): Promise<VersionedState | undefined> {
    assertSessionKey(key, 'PostgresSession.loadVersioned()');
    return this.#read(key);
  }

  /** Deletes `key` (no-op when absent). */
  async delete(key: string): Promise<void> {
    assertSessionKey(key, 'PostgresSession.delete()');
    await this.#db.query(
      `DELETE FROM ${this.#table} WHERE key = $1`,
      [encodeText(key)],
      'deleting',
    );
  }

  /** Every key, sorted as JavaScript sorts strings (by UTF-16 code units). */
  async list(): Promise<string[]> {
    const { rows } = await this.#db.query<{ key: string }>(
      `SELECT key FROM ${this.#table}`,
      [],
      'listing sessions',
    );
    return rows.map((row) => decodeText(row.key)).sort();
  }

  /** Ends the pool this session created (a pool you passed stays open); idempotent. */
  close(): Promise<void> {
    return this.#db.close();
  }

  async #read(key: string): Promise<VersionedState | undefined> {
    const { rows } = await this.#db.query<{ version: string; state: string }>(
      `SELECT version, state FROM ${this.#table} WHERE key = $1`,
      [encodeText(key)],
      `loading ${JSON.stringify(key)}`,
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    return parseRow(`${this.#db.schema}.sessions`, key, row);
  }
}

function parseRow(
  table: string,
  key: string,
  row: { version: string; state: string },
): VersionedState {
  const where = `Session ${JSON.stringify(key)} in PostgreSQL table ${table}`;
  const version = Number(row.version);
  if (!Number.isInteger(version) || version < 1) {
    throw new SessionCorruptError(
      `${where} has no valid version (${row.version}). ${RECOVER}`,
      key,
    );
  }
  let state: unknown;
  try {
    state = JSON.parse(row.state);
  } catch (error) {
    throw new SessionCorruptError(
      `${where} does not hold valid JSON (${error instanceof Error ? error.message : String(error)}). ${RECOVER}`,
      key,
      { cause: error },
    );
  }
  if (!isJsonObject(state)) {
    throw new SessionCorruptError(`${where} does not hold a JSON object. ${RECOVER}`, key);
  }
  return { state, version };
}
