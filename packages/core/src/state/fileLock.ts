import { randomUUID } from 'node:crypto';
import { link, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { StoreUnavailableError } from '../errors.js';
import { tempFileName } from './sessionTempFiles.js';

const HOST = hostname();
/** A lock of another machine (or unreadable) older than this is taken to be abandoned. */
const FOREIGN_STALE_MS = 60_000;
const MAX_WAIT_MS = 30_000;

/**
 * Runs `task` while holding the lock file `path`, exclusive between the processes of one
 * machine: the lock is a hard link made to a temp file holding `host pid token`, so it
 * appears atomically with its owner written (a link fails when the lock exists); it is removed when
 * `task` settles. A lock whose process is gone (same host, pid not running) or a foreign one
 * older than a minute is broken: renamed aside, checked to still be the stale one (else put
 * back) and removed. Waits with a short backoff while a live process holds it; rejects with
 * `StoreUnavailableError` after 30 s.
 */
export async function withFileLock<T>(path: string, task: () => Promise<T>): Promise<T> {
  const token = `${HOST} ${process.pid} ${randomUUID()}\n`;
  await acquire(path, token);
  try {
    return await task();
  } finally {
    await release(path, token);
  }
}

async function acquire(path: string, token: string): Promise<void> {
  const deadline = Date.now() + MAX_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    if (await tryLink(path, token)) return;
    if (await breakIfStale(path)) continue;
    if (Date.now() > deadline) {
      throw new StoreUnavailableError(
        `The lock file ${path} has been held by another process for more than ${MAX_WAIT_MS / 1000} s; if no process of this session is running, delete it.`,
        path,
      );
    }
    await delay(Math.min(50, 1 + attempt * 2));
  }
}

/**
 * Creates the lock with its owner already written: a temp file (swept like the session's
 * own temps when its writer died) hard-linked to `path`, which fails if `path` exists.
 */
async function tryLink(path: string, token: string): Promise<boolean> {
  const temp = join(dirname(path), tempFileName());
  await writeFile(temp, token, { encoding: 'utf8', flag: 'wx' });
  try {
    await link(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  } finally {
    await rm(temp, { force: true });
  }
}

async function release(path: string, token: string): Promise<void> {
  // Only our own lock: a lock broken as stale meanwhile belongs to someone else now.
  const held = await readFile(path, 'utf8').catch(() => undefined);
  if (held === token) await rm(path, { force: true });
}

/** Breaks the lock when its owner is gone; whether it did (or the lock vanished). */
async function breakIfStale(path: string): Promise<boolean> {
  let owner: string;
  try {
    owner = await readFile(path, 'utf8');
  } catch {
    return true; // released meanwhile: try again at once
  }
  if (!(await isStale(path, owner))) return false;
  const aside = `${path}.${randomUUID()}.stale`;
  try {
    await rename(path, aside);
  } catch {
    return true; // someone else broke it first
  }
  const moved = await readFile(aside, 'utf8').catch(() => undefined);
  // A live lock taken between our read and our rename goes back (link fails if a third
  // process holds a new lock by now, which then is the one that counts).
  if (moved !== owner) await link(aside, path).catch(() => undefined);
  await rm(aside, { force: true });
  return true;
}

async function isStale(path: string, owner: string): Promise<boolean> {
  const [host, pid] = owner.trim().split(' ');
  if (host === HOST && pid !== undefined && /^\d+$/.test(pid)) return !isRunning(Number(pid));
  try {
    return Date.now() - (await stat(path)).mtimeMs > FOREIGN_STALE_MS;
  } catch {
    return false;
  }
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
