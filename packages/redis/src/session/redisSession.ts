import { createHash } from 'node:crypto';
import {
  assertJsonState,
  assertSessionKey,
  checkExpectedVersion,
  checkOptions,
  InvalidArgumentError,
  isJsonObject,
  type JsonObject,
  optionNames,
  type Session,
  SessionConflictError,
  SessionCorruptError,
} from '@rxagent/core';
import { ErrorReply } from 'redis';
import {
  type RedisClient,
  RedisConnection,
  type RedisConnectionOptions,
} from '../connection/redisConnection.js';
import { LOAD_SCRIPT, SAVE_SCRIPT } from './saveScript.js';

/** Options of `new RedisSession()`. */
export interface RedisSessionOptions extends RedisConnectionOptions {
  /** Prepended to every key in Redis (default `"rxagent:session:"`). */
  readonly prefix?: string;
  /**
   * Expire a key this many seconds after its last save (default: never). Every save sets
   * the expiry anew, so a session saved without `ttlSeconds` loses any expiry it had.
   */
  readonly ttlSeconds?: number;
}

/** What `loadVersioned()` returns: the state and the version to pass back to `save()`. */
export interface VersionedState {
  readonly state: JsonObject;
  /** 1 after the first save, +1 on every save. */
  readonly version: number;
}

/** Options of a versioned `save()`. */
export interface SaveOptions {
  /**
   * Save only if the key is still at this version (from `loadVersioned()`; 0 for "not saved
   * yet"); otherwise reject with `SessionConflictError` and change nothing.
   */
  readonly expectedVersion?: number;
}

const SESSION_KEYS = optionNames<RedisSessionOptions>({
  url: true,
  client: true,
  commandTimeoutMs: true,
  prefix: true,
  ttlSeconds: true,
});

const RECOVER = 'Delete the key to start fresh, or restore it from a backup.';
const SAVE = { source: SAVE_SCRIPT, sha: sha1(SAVE_SCRIPT) };
const LOAD = { source: LOAD_SCRIPT, sha: sha1(LOAD_SCRIPT) };
/** The fields of a session hash; a hash with any other field is not one. */
const SESSION_FIELDS = 3;
const SCAN_BATCH = '500';

/**
 * A `Session` in Redis, shared by every process and server that uses the same Redis and
 * prefix. Each key is a hash `{ format: 1, version, state }` under `prefix + key`; a save is
 * one atomic script, so no reader ever sees half of one, and a save with `expectedVersion`
 * is a compare-and-set: of two servers that loaded version 3 and save concurrently, one
 * wins (version 4) and the other rejects with `SessionConflictError`, so no update is lost.
 *
 * Every method fails with `StoreUnavailableError` within `commandTimeoutMs` (default 2 s)
 * while Redis is unreachable, and works again once the client has reconnected. A stored
 * value that is not a session (another type, another program's hash — fields other than
 * exactly `format`, `version` and `state` — or bad JSON) rejects with `SessionCorruptError`
 * naming the Redis key, from `load`, `loadVersioned` and `save` alike: a save never writes
 * into it. `close()` releases the connection when the session created it.
 *
 * @example
 * ```ts
 * const session = new RedisSession({ url: 'redis://127.0.0.1:6379', ttlSeconds: 86_400 });
 * const saved = await session.loadVersioned('alice');
 * if (saved) agent.loadStateDict(saved.state);
 * await lastValueFrom(agent.call(userMsg('hi')));
 * await session.save('alice', agent.stateDict(), { expectedVersion: saved?.version ?? 0 });
 * await session.close();
 * ```
 */
export class RedisSession implements Session {
  /** The key prefix in Redis. */
  readonly prefix: string;
  readonly #ttlSeconds: number;
  readonly #redis: RedisConnection;

  constructor(options: RedisSessionOptions = {}) {
    checkOptions(options, SESSION_KEYS, 'RedisSession');
    const prefix = options.prefix ?? 'rxagent:session:';
    if (typeof prefix !== 'string') {
      throw new InvalidArgumentError('new RedisSession(options): prefix must be a string.');
    }
    const ttl = options.ttlSeconds ?? 0;
    if (!Number.isInteger(ttl) || ttl < 0) {
      throw new InvalidArgumentError(
        `new RedisSession(options): ttlSeconds must be a whole number of seconds ≥ 0 (got ${String(ttl)}).`,
      );
    }
    this.prefix = prefix;
    this.#ttlSeconds = ttl;
    this.#redis = new RedisConnection(options, 'RedisSession');
  }

  /** The Redis key that holds `key`'s state. */
  redisKey(key: string): string {
    assertSessionKey(key, 'RedisSession.redisKey()');
    return this.prefix + key;
  }

  /**
   * Stores `state` under `key` atomically. With `expectedVersion`, rejects with
   * `SessionConflictError` (changing nothing) when the key is at another version. Rejects
   * with `InvalidArgumentError` for a bad key, non-JSON state or version before touching Redis.
   */
  async save(key: string, state: JsonObject, options: SaveOptions = {}): Promise<void> {
    await this.#save(key, state, options, 'RedisSession.save()');
  }

  /** Like `save()`, and resolves with the key's new version (for the next `expectedVersion`). */
  saveVersioned(key: string, state: JsonObject, options: SaveOptions = {}): Promise<number> {
    return this.#save(key, state, options, 'RedisSession.saveVersioned()');
  }

  async #save(
    key: string,
    state: JsonObject,
    options: SaveOptions,
    method: string,
  ): Promise<number> {
    assertSessionKey(key, method);
    assertJsonState(state, method);
    checkOptions(options, ['expectedVersion'], method);
    checkExpectedVersion(options, method);
    const expected = options.expectedVersion;
    const redisKey = this.prefix + key;
    const args = [
      JSON.stringify(state),
      expected === undefined ? '' : String(expected),
      String(this.#ttlSeconds),
    ];
    const reply = await this.#runScript(SAVE, redisKey, args, `saving ${JSON.stringify(redisKey)}`);
    if (!Array.isArray(reply) || reply.length !== 2) {
      throw new SessionCorruptError(
        `${method}: unexpected reply from Redis for ${redisKey}.`,
        redisKey,
      );
    }
    const [saved, version] = reply.map(Number) as [number, number];
    if (saved !== 1) throw new SessionConflictError(key, expected ?? 0, version);
    return version;
  }

  /** The state saved under `key`, as a fresh object, or `undefined` when there is none. */
  async load(key: string): Promise<JsonObject | undefined> {
    assertSessionKey(key, 'RedisSession.load()');
    return (await this.#read(key))?.state;
  }

  /**
   * The state saved under `key` with its version, or `undefined` when there is none. Pass the
   * version to `save(key, state, { expectedVersion })` to save only if nobody saved since.
   */
  async loadVersioned(key: string): Promise<VersionedState | undefined> {
    assertSessionKey(key, 'RedisSession.loadVersioned()');
    return this.#read(key);
  }

  /** Deletes `key` (no-op when absent). */
  async delete(key: string): Promise<void> {
    assertSessionKey(key, 'RedisSession.delete()');
    const redisKey = this.prefix + key;
    await this.#redis.command(['DEL', redisKey], `deleting ${JSON.stringify(redisKey)}`);
  }

  /** Every key under the prefix, sorted. Uses SCAN (never KEYS), so it does not block Redis. */
  async list(): Promise<string[]> {
    const keys = new Set<string>();
    const match = `${escapeGlob(this.prefix)}*`;
    let cursor = '0';
    do {
      const reply = await this.#redis.command<[string, string[]]>(
        ['SCAN', cursor, 'MATCH', match, 'COUNT', SCAN_BATCH, 'TYPE', 'hash'],
        'listing sessions',
      );
      cursor = String(reply[0]);
      for (const redisKey of reply[1]) keys.add(String(redisKey).slice(this.prefix.length));
    } while (cursor !== '0');
    return [...keys].sort();
  }

  /** Releases the Redis connection when this session created it. Idempotent. */
  close(): Promise<void> {
    return this.#redis.close();
  }

  /** The client this session uses, connected (for sharing with other `@rxagent/redis` objects). */
  client(): Promise<RedisClient> {
    return this.#redis.ready('connecting');
  }

  async #read(key: string): Promise<VersionedState | undefined> {
    const redisKey = this.prefix + key;
    const reply = await this.#runScript(LOAD, redisKey, [], `loading ${JSON.stringify(redisKey)}`);
    const [fieldCount, fields] = Array.isArray(reply) ? reply : [];
    if (Number(fieldCount) === 0) return undefined;
    if (Number(fieldCount) !== SESSION_FIELDS || !Array.isArray(fields)) {
      throw new SessionCorruptError(
        `Session ${redisKey} in Redis is a hash of ${String(fieldCount)} field(s), not the format, version and state of a session (written by another program?). ${RECOVER}`,
        redisKey,
      );
    }
    const [format, version, text] = fields as unknown[];
    return parseStored(redisKey, format, version, text);
  }

  async #runScript(
    script: { readonly source: string; readonly sha: string },
    redisKey: string,
    args: string[],
    what: string,
  ): Promise<unknown> {
    try {
      try {
        return await this.#redis.command(['EVALSHA', script.sha, '1', redisKey, ...args], what);
      } catch (error) {
        if (!(error instanceof ErrorReply) || !error.message.startsWith('NOSCRIPT')) throw error;
        return await this.#redis.command(['EVAL', script.source, '1', redisKey, ...args], what);
      }
    } catch (error) {
      throw corruptOrRethrow(error, redisKey);
    }
  }
}

function parseStored(
  redisKey: string,
  format: unknown,
  version: unknown,
  text: unknown,
): VersionedState {
  if (String(format) !== '1') {
    throw new SessionCorruptError(
      `Session ${redisKey} in Redis has format ${JSON.stringify(format ?? null)}, not 1 (written by something else, or a newer rxagent). ${RECOVER}`,
      redisKey,
    );
  }
  const number = Number(version);
  if (!Number.isInteger(number) || number < 1 || typeof text !== 'string') {
    throw new SessionCorruptError(
      `Session ${redisKey} in Redis has no valid version or state field. ${RECOVER}`,
      redisKey,
    );
  }
  let state: unknown;
  try {
    state = JSON.parse(text);
  } catch (error) {
    throw new SessionCorruptError(
      `Session ${redisKey} in Redis does not hold valid JSON (${error instanceof Error ? error.message : String(error)}). ${RECOVER}`,
      redisKey,
      { cause: error },
    );
  }
  if (!isJsonObject(state)) {
    throw new SessionCorruptError(
      `Session ${redisKey} in Redis does not hold a JSON object. ${RECOVER}`,
      redisKey,
    );
  }
  return { state, version: number };
}

function corruptOrRethrow(error: unknown, redisKey: string): unknown {
  if (error instanceof ErrorReply && error.message.startsWith('FOREIGN')) {
    return new SessionCorruptError(
      `Session ${redisKey} in Redis is a hash but not a session of format 1 (written by another program, or a newer rxagent), so nothing was saved into it. ${RECOVER}`,
      redisKey,
      { cause: error },
    );
  }
  if (error instanceof ErrorReply && /WRONGTYPE|BADVERSION/.test(error.message)) {
    return new SessionCorruptError(
      `Session ${redisKey} in Redis is not a session hash (${error.message}). ${RECOVER}`,
      redisKey,
      { cause: error },
    );
  }
  return error;
}

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (char) => `\\${char}`);
}
