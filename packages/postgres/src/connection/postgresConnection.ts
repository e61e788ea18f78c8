import { AgentError, InvalidArgumentError, StoreUnavailableError } from '@rxagent/core';
import pg from 'pg';
import { migrate } from '../schema/migrations.js';

/** How every class of this package reaches PostgreSQL: a connection string (it owns a pool) or your pool. */
export interface PostgresConnectionOptions {
  /**
   * `postgresql://user:password@host:port/database`; default: `pg`'s environment variables
   * (`PGHOST`, `PGUSER`, …). Ignored when `pool` is given.
   */
  readonly connectionString?: string | undefined;
  /** A `pg.Pool` you created and own: used as it is, never ended by `close()`. */
  readonly pool?: pg.Pool;
  /**
   * The schema holding this package's tables (default `"rxagent"`), created on first use:
   * lowercase letters, digits and `_`, starting with a letter or `_`.
   */
  readonly schema?: string;
  /**
   * The bounded wait, in milliseconds, of connecting and of each query of a pool this
   * package creates (default 10 000): while the database is down or stalled a call fails
   * with `StoreUnavailableError` after at most about this long.
   */
  readonly timeoutMs?: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

// SQLSTATE classes and codes that mean "the server is not there (now)": connection exceptions
// (08), operator intervention (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot
// connect now), too many connections (53300) and a server shutting down mid-query.
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300', '53400']);

/**
 * One pool plus the rules every class of this package shares: the schema's tables migrated
 * once before the first query, and connection failures mapped to `StoreUnavailableError`.
 * Internal.
 */
export class PostgresConnection {
  /** The schema, validated: safe to splice into SQL as a quoted identifier. */
  readonly schema: string;
  readonly #pool: pg.Pool;
  readonly #owned: boolean;
  readonly #label: string;
  #ready: Promise<void> | undefined;
  #closed = false;

  constructor(options: PostgresConnectionOptions, label: string) {
    if (typeof options !== 'object' || options === null) {
      throw new InvalidArgumentError(
        `${label}: options must be an object ({ connectionString } or { pool }).`,
      );
    }
    const schema = options.schema ?? 'rxagent';
    if (typeof schema !== 'string' || !SCHEMA_NAME.test(schema)) {
      throw new InvalidArgumentError(
        `${label}: schema must be lowercase letters, digits and _ (at most 63, not starting with a digit); got ${JSON.stringify(schema)}.`,
      );
    }
    const timeout = options.timeoutMs ?? 10_000;
    if (!Number.isFinite(timeout) || timeout <= 0) {
      throw new InvalidArgumentError(
        `${label}: timeoutMs must be a positive number of milliseconds (got ${String(timeout)}).`,
      );
    }
    this.schema = schema;
    this.#label = label;
    this.#owned = options.pool === undefined;
    this.#pool =
      options.pool ??
      new pg.Pool({
        connectionString: options.connectionString,
        connectionTimeoutMillis: timeout,
        query_timeout: timeout,
        idleTimeoutMillis: 30_000,
      });
    // An idle client whose server went away emits 'error' on the pool, which drops it; without
    // a listener that event would crash the process. The next query opens a fresh connection.
    if (this.#owned) this.#pool.on('error', ignore);
  }

  /**
   * Runs one statement (after the schema is migrated, once). Rejects with
   * `StoreUnavailableError` when the database cannot be reached, and with the server's own
   * error for a statement it refused.
   */
  async query<R extends pg.QueryResultRow>(
    text: string,
    values: readonly unknown[],
    what: string,
  ): Promise<pg.QueryResult<R>> {
    if (this.#closed) {
      throw new InvalidArgumentError(`${this.#label}: ${what} after close().`);
    }
    await this.ready(what);
    try {
      return await this.#pool.query<R>(text, values as unknown[]);
    } catch (error) {
      throw this.map(error, what);
    }
  }

  /** Migrates the schema once (again after a failure): every other call waits for it. */
  ready(what: string): Promise<void> {
    this.#ready ??= migrate(this.#pool, this.schema).catch((error: unknown) => {
      this.#ready = undefined;
      throw this.map(error, what);
    });
    return this.#ready;
  }

  /** `StoreUnavailableError` for a connection failure; any other error as it is. */
  map(error: unknown, what: string): unknown {
    if (!isConnectionError(error)) return error;
    const reason = error instanceof Error ? error.message : String(error);
    return new StoreUnavailableError(
      `${this.#label}: ${what} failed: PostgreSQL is not reachable or did not answer (${reason}). The next call connects again; check that the database is running.`,
      'postgres',
      { cause: error },
    );
  }

  /** Ends the pool when this connection created it; idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#owned) await this.#pool.end();
  }
}

/** Whether `error` says the server is not there, rather than that it refused a statement. */
function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error) || error instanceof AgentError) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
    return code.startsWith('08') || UNAVAILABLE_CODES.has(code);
  }
  // No SQLSTATE: a socket error (ECONNREFUSED, ECONNRESET…), a connect or query timeout,
  // or the connection ending under a query.
  return true;
}

function ignore(): void {}
