import { InvalidArgumentError, StoreUnavailableError } from '@rxagent/core';
import { createClient, ErrorReply, type RedisArgument } from 'redis';
import { backoffDelay } from './backoff.js';

/** A node-redis client (`createClient()` from the `redis` package). */
export type RedisClient = ReturnType<typeof createClient>;

/** How every `@rxagent/redis` class reaches Redis: a URL (the class owns the client) or your client. */
export interface RedisConnectionOptions {
  /** `redis://host:port/db`; default `redis://127.0.0.1:6379`. Ignored when `client` is given. */
  readonly url?: string;
  /**
   * A client you created and own: it is connected on first use when it is not yet, and never
   * closed by `close()`. Blocking reads and subscriptions use duplicates of it, which are.
   */
  readonly client?: RedisClient;
  /**
   * The bounded wait of every command, in milliseconds (default 2000): while Redis is down or
   * stalled, a command fails with `StoreUnavailableError` after at most this long (at once
   * when the client already knows the connection is lost).
   */
  readonly commandTimeoutMs?: number;
}

/** The default bounded wait of a command, in milliseconds. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 2_000;

/**
 * One Redis client plus the rules every class of this package shares: lazy connect,
 * reconnect with backoff (owned clients), no offline queue (a command while down fails
 * instead of waiting), a bounded wait per command and errors mapped to
 * `StoreUnavailableError`. Internal.
 */
export class RedisConnection {
  readonly timeoutMs: number;
  readonly #client: RedisClient;
  readonly #owned: boolean;
  readonly #label: string;
  readonly #onError = (error: unknown): void => {
    this.#lastError = error;
  };
  #lastError: unknown;
  #connecting: Promise<unknown> | undefined;
  #closed = false;

  constructor(options: RedisConnectionOptions, label: string, client?: RedisClient) {
    if (typeof options !== 'object' || options === null) {
      throw new InvalidArgumentError(
        `${label}: options must be an object ({ url } or { client }).`,
      );
    }
    const timeout = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    if (!Number.isFinite(timeout) || timeout <= 0) {
      throw new InvalidArgumentError(
        `${label}: commandTimeoutMs must be a positive number of milliseconds (got ${String(timeout)}).`,
      );
    }
    this.timeoutMs = timeout;
    this.#label = label;
    this.#owned = client !== undefined || options.client === undefined;
    this.#client = client ?? options.client ?? createOwnedClient(options.url, timeout);
    this.#client.on('error', this.#onError);
  }

  /** A second connection to the same server (for blocking reads and pub/sub), owned by the caller. */
  duplicate(label: string): RedisConnection {
    const client = this.#client.duplicate({
      disableOfflineQueue: true,
      socket: { ...this.#client.options?.socket, reconnectStrategy: reconnect },
    } as Parameters<RedisClient['duplicate']>[0]);
    return new RedisConnection({ commandTimeoutMs: this.timeoutMs }, label, client as RedisClient);
  }

  /** The client, connected: for pub/sub calls that are not plain commands. */
  async ready(what: string): Promise<RedisClient> {
    await this.#connect(what);
    return this.#client;
  }

  /**
   * Sends one command. Rejects with `StoreUnavailableError` when Redis cannot be reached or
   * does not answer within `timeoutMs` (plus `extraMs`, for blocking commands), and with
   * Redis's own error for a command Redis refused. The bound covers connecting and the
   * answer together: node-redis's own `timeout` stops counting once a command is written,
   * so a stalled server (alive, not answering) would otherwise keep it waiting forever.
   */
  async command<T>(args: readonly RedisArgument[], what: string, extraMs = 0): Promise<T> {
    const limit = this.timeoutMs + extraMs;
    return this.#within(what, limit, async () => {
      await this.#connect(what);
      return this.#client.sendCommand<T>(args, { timeout: limit });
    });
  }

  /**
   * Runs `task` on the connected client within the bounded wait (for calls that are not plain
   * commands, such as SUBSCRIBE); rejects with `StoreUnavailableError` when it takes longer.
   */
  async bounded<T>(what: string, task: (client: RedisClient) => Promise<T>): Promise<T> {
    return this.#within(what, this.timeoutMs, async () => {
      await this.#connect(what);
      return task(this.#client);
    });
  }

  /** `task`, failed with `StoreUnavailableError` when it has not settled after `limitMs`. */
  async #within<T>(what: string, limitMs: number, task: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.unavailable(what, undefined, limitMs)), limitMs);
    });
    try {
      return await Promise.race([task(), timedOut]);
    } catch (error) {
      throw error instanceof StoreUnavailableError || isServerError(error)
        ? error
        : this.unavailable(what, error);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A `StoreUnavailableError` for `what`, with `cause` the client's own error. */
  unavailable(what: string, cause: unknown, waitedMs = this.timeoutMs): StoreUnavailableError {
    const reason = describe(cause ?? this.#lastError);
    return new StoreUnavailableError(
      `${this.#label}: ${what} failed: Redis is not reachable or did not answer within ${waitedMs} ms (${reason}). It is retried with backoff; check that Redis is running.`,
      'redis',
      { cause: cause ?? this.#lastError },
    );
  }

  /** Closes the client when this connection owns it (quits politely when connected); idempotent. */
  close(): Promise<void> {
    return this.#shutdown(true);
  }

  /** Drops the connection at once (pending commands reject); for stopping a blocking read. */
  destroy(): Promise<void> {
    return this.#shutdown(false);
  }

  async #shutdown(polite: boolean): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#client.off('error', this.#onError);
    if (!this.#owned) return;
    // A late 'error' from a socket being torn down must not become an unhandled event.
    this.#client.on('error', ignore);
    // node-redis leaves the socket it is opening behind when destroyed mid-connect: let a
    // connect on its way land first (bounded: a down server keeps it in its retry wait,
    // where destroying is safe).
    if (this.#client.isOpen && !this.#client.isReady && this.#connecting !== undefined) {
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.timeoutMs);
      });
      await Promise.race([this.#connecting.catch(ignore), bound]);
      clearTimeout(timer);
    }
    if (!this.#client.isOpen) return;
    if (polite && this.#client.isReady) await this.#closePolitely();
    else this.#client.destroy();
  }

  /**
   * Closes after the commands in flight were answered when the server answers a PING within
   * the bounded wait; drops the connection when it does not (a stalled server would never
   * answer them, and node-redis cannot drop a connection it has begun to close).
   */
  async #closePolitely(): Promise<void> {
    const client = this.#client;
    const answers = await this.#within('closing', this.timeoutMs, () =>
      client.sendCommand(['PING']),
    ).then(
      () => true,
      () => false,
    );
    if (!answers || !client.isOpen) {
      if (client.isOpen) client.destroy();
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        // Stalled after the PING: let the process exit instead of waiting for the server.
        client.unref();
        resolve();
      }, this.timeoutMs);
    });
    await Promise.race([client.close().catch(ignore), late]);
    clearTimeout(timer);
  }

  async #connect(what: string): Promise<void> {
    if (this.#closed) {
      throw new StoreUnavailableError(`${this.#label}: ${what} after close().`, 'redis');
    }
    if (this.#client.isReady) return;
    if (!this.#client.isOpen) this.#connecting ??= this.#client.connect();
    const connecting = this.#connecting ?? Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.unavailable(what, undefined)), this.timeoutMs);
    });
    try {
      await Promise.race([connecting, timedOut]);
    } catch (error) {
      if (error instanceof StoreUnavailableError) throw error;
      this.#connecting = undefined;
      throw this.unavailable(what, error);
    } finally {
      clearTimeout(timer);
    }
    // A client reconnecting in the background is open but not ready: fail now, not later.
    if (!this.#client.isReady) throw this.unavailable(what, undefined);
  }
}

function createOwnedClient(url: string | undefined, timeoutMs: number): RedisClient {
  return createClient({
    url: url ?? 'redis://127.0.0.1:6379',
    disableOfflineQueue: true,
    socket: { connectTimeout: timeoutMs, reconnectStrategy: reconnect },
  });
}

function reconnect(retries: number): number {
  return backoffDelay(retries);
}

function isServerError(error: unknown): boolean {
  // node-redis rejects with an ErrorReply for an error Redis itself sent back.
  return error instanceof ErrorReply;
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return error === undefined ? 'not connected' : String(error);
}

function ignore(): void {}
