import { StoreUnavailableError } from '@rxagent/core';
import type pg from 'pg';

/** One numbered step of the schema: SQL run once, in order, inside the migrating transaction. */
interface Migration {
  readonly version: number;
  readonly name: string;
  /** The statements; `S` stands for the quoted schema name. */
  readonly sql: (schema: string) => string;
}

/**
 * The schema of this package, one step per version. Never edit a shipped step: add the next
 * one. A database migrated by a newer package has steps this list does not know, and is
 * then refused (see `SchemaTooNewError`).
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'sessions',
    sql: (s) => `
      CREATE TABLE ${s}.sessions (
        key text PRIMARY KEY,
        version bigint NOT NULL,
        state text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );`,
  },
  {
    version: 2,
    name: 'memory_items',
    sql: (s) => `
      CREATE TABLE ${s}.memory_items (
        namespace text[] NOT NULL,
        key text NOT NULL,
        value text NOT NULL,
        doc jsonb NOT NULL,
        version bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        text_hash text NOT NULL,
        tsv tsvector NOT NULL,
        doc_len integer NOT NULL,
        embedder text,
        embedding real[],
        PRIMARY KEY (namespace, key)
      );
      CREATE INDEX memory_items_tsv ON ${s}.memory_items USING gin (tsv);
      CREATE INDEX memory_items_doc ON ${s}.memory_items USING gin (doc jsonb_path_ops);
      CREATE INDEX memory_items_text_hash ON ${s}.memory_items (text_hash);`,
  },
];

/** The newest schema version this package knows. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * The database's schema was migrated by a newer `@rxagent/postgres` than this one: this
 * package does not know its tables, so it neither reads nor writes them (every call fails
 * with this error, a `StoreUnavailableError` with `store: 'postgres'`, as `@rxagent/sqlite`
 * fails in the same case). Upgrade the package, or point it at another `schema`. `table`
 * names the migrations table.
 */
export class SchemaTooNewError extends StoreUnavailableError {
  constructor(
    readonly table: string,
    readonly databaseVersion: number,
    readonly packageVersion: number,
  ) {
    super(
      `The PostgreSQL schema ${table} is at version ${databaseVersion}, newer than this @rxagent/postgres knows (${packageVersion}): a newer version of the package migrated it. Upgrade @rxagent/postgres in this process; nothing was read or written.`,
      'postgres',
    );
  }
}

/**
 * Brings `schema` to `SCHEMA_VERSION`. A quick read first (no lock when the schema is
 * current); otherwise one transaction holding an advisory lock of the schema, so several
 * processes starting at once apply each step exactly once and each waits for the others.
 * A database newer than this package rejects with `SchemaTooNewError`, the transaction
 * rolled back: nothing written.
 */
export async function migrate(pool: pg.Pool, schema: string): Promise<void> {
  const s = `"${schema}"`;
  const table = `${s}.migrations`;
  if ((await quickVersion(pool, table)) === SCHEMA_VERSION) return;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`rxagent.migrate:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${table} (
         version integer PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await client.query<{ version: number | null }>(
      `SELECT max(version) AS version FROM ${table}`,
    );
    const at = Number(rows[0]?.version ?? 0);
    if (at > SCHEMA_VERSION)
      throw new SchemaTooNewError(`${schema}.migrations`, at, SCHEMA_VERSION);
    for (const step of MIGRATIONS.filter((m) => m.version > at)) {
      await client.query(step.sql(s));
      await client.query(`INSERT INTO ${table} (version, name) VALUES ($1, $2)`, [
        step.version,
        step.name,
      ]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release(true);
    throw error;
  }
  client.release();
}

/** The schema's version by one read, or 0 when its migrations table does not exist yet. */
async function quickVersion(pool: pg.Pool, table: string): Promise<number> {
  try {
    const { rows } = await pool.query<{ version: number | null }>(
      `SELECT max(version) AS version FROM ${table}`,
    );
    return Number(rows[0]?.version ?? 0);
  } catch (error) {
    // 42P01: no such table; 3F000: no such schema. Anything else is a real failure.
    const code = (error as { code?: unknown }).code;
    if (code === '42P01' || code === '3F000') return 0;
    throw error;
  }
}
