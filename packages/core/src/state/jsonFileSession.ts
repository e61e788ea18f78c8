import { type FileHandle, mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { InvalidArgumentError, SessionConflictError, SessionCorruptError } from '../errors.js';
import { isJsonObject, type JsonObject } from '../json.js';
import { withFileLock } from './fileLock.js';
import { jsonErrorPosition } from './jsonErrorPosition.js';
import { assertJsonState, assertSessionKey } from './session.js';
import { decodeSessionFileName, encodeSessionKey, SESSION_FILE_SUFFIX } from './sessionKey.js';
import { sweepStaleTempFiles, tempFileName } from './sessionTempFiles.js';
import {
  checkExpectedVersion,
  type SaveOptions,
  type VersionedSession,
  type VersionedState,
} from './versionedSession.js';

/** The format version of a session file. */
const FILE_VERSION = 1;
const RECOVER = 'Restore it from a backup, or delete it to start fresh.';

/**
 * A `Session` that keeps one JSON file per key in a directory: the default store of the
 * examples. The file of a key is named by an encoding that can never leave the directory
 * (`../x` becomes `%2E%2E%2Fx.json`) and holds `{ "version": 1, "revision", "key", "state" }`,
 * pretty-printed; `revision` counts the saves of the key (1 after the first).
 *
 * Saves are versioned, safe between the processes of one machine: `loadVersioned(key)`
 * returns the revision, and `save(key, state, { expectedVersion })` stores only when the
 * file is still at that revision, else rejects with `SessionConflictError`. Every save and
 * delete holds a lock file beside the key's file (`.<name>.json.lock`, created atomically,
 * broken when the process holding it is gone) while it compares and renames.
 *
 * Writes are atomic: the file is written to a temp file in the same directory, flushed to
 * disk and renamed over the old one, so a crash mid-write leaves the previous state, never a
 * torn file. Temp files a crashed writer left behind (its process is gone, or the file is
 * older than 15 minutes) are removed on the instance's first save, delete or list; `list()`
 * never shows a temp file. Within one instance, saves and deletes of a key apply in call order. A file that
 * cannot be read back rejects with `SessionCorruptError` naming it, never as an empty state.
 *
 * @example
 * ```ts
 * const session = new JsonFileSession('./sessions');
 * await session.save('alice', agent.stateDict());   // ./sessions/%41lice.json
 * ```
 */
export class JsonFileSession implements VersionedSession {
  /** The directory holding the session files; created on the first save. */
  readonly dir: string;
  readonly #writes = new Map<string, Promise<void>>();
  #swept: Promise<void> | undefined;

  constructor(dir: string) {
    if (typeof dir !== 'string' || dir === '') {
      throw new InvalidArgumentError(
        'new JsonFileSession(dir): dir must be a non-empty directory path.',
      );
    }
    this.dir = dir;
  }

  /** The path of the file that holds `key`'s state (it may not exist yet). */
  pathFor(key: string): string {
    assertSessionKey(key, 'JsonFileSession.pathFor()');
    return this.#fileOf(key, 'JsonFileSession.pathFor()');
  }

  /**
   * Writes `state` under `key` atomically. With `expectedVersion`, only when the key's file
   * is at that revision (0: no file yet); otherwise rejects with `SessionConflictError` and
   * changes nothing. Rejects with `InvalidArgumentError` before touching the disk for a bad
   * key, non-JSON state or a bad `expectedVersion`.
   */
  async save(key: string, state: JsonObject, options?: SaveOptions): Promise<void> {
    const method = 'JsonFileSession.save()';
    assertSessionKey(key, method);
    assertJsonState(state, method);
    checkExpectedVersion(options, method);
    const file = this.#fileOf(key, method);
    const body = JSON.stringify(state, null, 2).replaceAll('\n', '\n  ');
    const expected = options?.expectedVersion;
    await this.#sweep();
    return this.#inOrder(file, async () => {
      await mkdir(this.dir, { recursive: true }).catch((error: unknown) => {
        throw notADirectory(this.dir, error);
      });
      await withFileLock(lockFileOf(file), async () => {
        const revision = await readRevision(file, key);
        if (expected !== undefined && expected !== revision) {
          throw new SessionConflictError(key, expected, revision);
        }
        const head = `{\n  "version": ${FILE_VERSION},\n  "revision": ${revision + 1},\n`;
        await this.#write(file, `${head}  "key": ${JSON.stringify(key)},\n  "state": ${body}\n}\n`);
      });
    });
  }

  /**
   * The state saved under `key` with its revision (for `save(..., { expectedVersion })`), or
   * `undefined` when it has no file. Rejects like `load()`.
   */
  async loadVersioned(key: string): Promise<VersionedState | undefined> {
    assertSessionKey(key, 'JsonFileSession.loadVersioned()');
    const file = this.#fileOf(key, 'JsonFileSession.loadVersioned()');
    const text = await readIfExists(file, this.dir);
    return text === undefined ? undefined : parseSessionFile(text, file, key);
  }

  /**
   * The state saved under `key`, or `undefined` when it has no file. Rejects with
   * `SessionCorruptError` when the file is not valid JSON or not a session file for `key`.
   */
  async load(key: string): Promise<JsonObject | undefined> {
    assertSessionKey(key, 'JsonFileSession.load()');
    const file = this.#fileOf(key, 'JsonFileSession.load()');
    const text = await readIfExists(file, this.dir);
    return text === undefined ? undefined : parseSessionFile(text, file, key).state;
  }

  /** Deletes `key`'s file (no-op when there is none). */
  async delete(key: string): Promise<void> {
    assertSessionKey(key, 'JsonFileSession.delete()');
    const file = this.#fileOf(key, 'JsonFileSession.delete()');
    await this.#sweep();
    return this.#inOrder(file, async () => {
      try {
        await withFileLock(lockFileOf(file), () => rm(file, { force: true }));
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') throw error; // no directory: nothing to delete
      }
    });
  }

  /** Every key with a file in `dir`, sorted; temp files and foreign files are skipped. */
  async list(): Promise<string[]> {
    await this.#sweep();
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return [];
      throw notADirectory(this.dir, error);
    }
    const keys: string[] = [];
    for (const name of names) {
      const key = decodeSessionFileName(name);
      if (key !== undefined) keys.push(key);
    }
    return keys.sort();
  }

  // Once per instance: a crash leaves temps only between runs, not during one.
  #sweep(): Promise<void> {
    this.#swept ??= sweepStaleTempFiles(this.dir);
    return this.#swept;
  }

  #fileOf(key: string, method: string): string {
    return join(this.dir, encodeSessionKey(key, method) + SESSION_FILE_SUFFIX);
  }

  // Without ordering, two unawaited saves of one key could rename in either order.
  #inOrder(file: string, task: () => Promise<void>): Promise<void> {
    const previous = this.#writes.get(file) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(task);
    this.#writes.set(file, next);
    const forget = (): void => {
      if (this.#writes.get(file) === next) this.#writes.delete(file);
    };
    next.then(forget, forget);
    return next;
  }

  async #write(file: string, text: string): Promise<void> {
    const temp = join(this.dir, tempFileName());
    let handle: FileHandle | undefined;
    try {
      handle = await open(temp, 'wx');
      await handle.writeFile(text, 'utf8');
      await handle.sync();
      await handle.close();
      handle = undefined;
      await rename(temp, file);
    } catch (error) {
      await handle?.close().catch(() => undefined);
      await rm(temp, { force: true }).catch(() => undefined);
      throw error;
    }
    await syncDirectory(this.dir);
  }
}

/** The lock file of a key's file: starts with a dot, so it is never listed as a key. */
function lockFileOf(file: string): string {
  return join(dirname(file), `.${basename(file)}.lock`);
}

async function readIfExists(file: string, dir: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw notADirectory(dir, error);
  }
}

// The files this class writes start with `{ "version", "revision"`: their head is enough.
const HEAD_REVISION = /^\{\n {2}"version": 1,\n {2}"revision": (\d+),\n/;

/** The revision of `key`'s file (0 when there is none), read from its head when it can be. */
async function readRevision(file: string, key: string): Promise<number> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return 0;
    throw error;
  }
  try {
    const head = Buffer.alloc(64);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const match = HEAD_REVISION.exec(head.toString('utf8', 0, bytesRead));
    if (match) return Number(match[1]);
  } finally {
    await handle.close();
  }
  return parseSessionFile(await readFile(file, 'utf8'), file, key).version;
}

/** Validates a session file's text and returns its state and revision. */
function parseSessionFile(raw: string, file: string, key: string): VersionedState {
  // Editors on Windows may add a byte-order mark; it is not part of the JSON.
  const text = raw.startsWith('\uFEFF') ? raw.slice(1) : raw;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const at = jsonErrorPosition(text);
    const where = at ? ` (line ${at.line}, column ${at.column})` : '';
    const detail = error instanceof Error ? `: ${error.message}` : '';
    throw new SessionCorruptError(
      `Session file ${file} is not valid JSON${where}${detail}. ${RECOVER}`,
      file,
      {
        cause: error,
      },
    );
  }
  const problem = shapeProblem(data, key);
  if (problem !== undefined)
    throw new SessionCorruptError(`Session file ${file} ${problem}. ${RECOVER}`, file);
  const { state, revision } = data as { state: JsonObject; revision?: unknown };
  // Files written before revisions were recorded count as one save.
  return { state, version: typeof revision === 'number' ? revision : 1 };
}

function shapeProblem(data: unknown, key: string): string | undefined {
  if (!isJsonObject(data)) return 'does not hold a JSON object';
  if (data['version'] !== FILE_VERSION) {
    return `has version ${JSON.stringify(data['version']) ?? 'undefined'}, but this rxagent reads version ${FILE_VERSION} session files (upgrade rxagent if it was written by a newer one)`;
  }
  if (data['key'] !== key) {
    return `holds key ${JSON.stringify(data['key']) ?? 'undefined'}, not ${JSON.stringify(key)} (was it copied or renamed?)`;
  }
  if (!isJsonObject(data['state'])) return 'has no "state" object';
  const revision = data['revision'];
  if (revision !== undefined && !(Number.isInteger(revision) && (revision as number) > 0))
    return `has revision ${JSON.stringify(revision)}, not a whole number ≥ 1`;
  return undefined;
}

// Makes the rename itself durable; not every platform can open a directory (Windows), and
// the write is already atomic without it, so failing here is not an error.
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // best effort
  }
}

/**
 * `error` from a file operation in `dir`, as an `InvalidArgumentError` naming the path when
 * it says that `dir` (or a directory above it) is a file; other errors as they are.
 */
function notADirectory(dir: string, error: unknown): unknown {
  const code = errorCode(error);
  if (code !== 'EEXIST' && code !== 'ENOTDIR') return error;
  return new InvalidArgumentError(
    `JsonFileSession: the session directory ${dir} is not a directory (a file is in the way): give new JsonFileSession() a directory path, or move that file.`,
    { cause: error },
  );
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string'
    ? error.code
    : undefined;
}
