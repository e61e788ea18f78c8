import { randomUUID } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * How old a temp file of another machine (or of an unknown owner) must be before a sweep
 * removes it: far longer than any write takes, so only a crashed writer's temp qualifies.
 */
export const STALE_TEMP_AGE_MS = 15 * 60 * 1000;

const HOST = hostname().replace(/[^A-Za-z0-9-]/g, '-');
// `.<host>.<pid>.<uuid>.tmp`; older releases wrote `.<uuid>.tmp`.
const TEMP_NAME = /^\.(?:([A-Za-z0-9-]*)\.(\d+)\.)?[0-9a-f-]{36}\.tmp$/;

/**
 * A fresh temp file name for a write by this process. It starts with a dot, so it never
 * decodes as a session key, and it names its owner (host and pid) so a sweep can tell a
 * live writer's temp from a crashed one's.
 */
export function tempFileName(): string {
  return `.${HOST}.${process.pid}.${randomUUID()}.tmp`;
}

/**
 * Removes the temp files in `dir` left by writers that crashed between creating a temp and
 * renaming it: those of a process of this machine that is no longer running, and any older
 * than {@link STALE_TEMP_AGE_MS}. A live writer's temp is kept. Best effort: never rejects.
 */
export async function sweepStaleTempFiles(dir: string, now = Date.now()): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  await Promise.all(
    names.map(async (name) => {
      const match = TEMP_NAME.exec(name);
      if (!match) return;
      const path = join(dir, name);
      try {
        if (!(await isStale(path, match[1], match[2], now))) return;
        await rm(path, { force: true });
      } catch {
        // Gone already, or not ours to remove: the next sweep tries again.
      }
    }),
  );
}

async function isStale(
  path: string,
  host: string | undefined,
  pid: string | undefined,
  now: number,
): Promise<boolean> {
  if (host === HOST && pid !== undefined && !isRunning(Number(pid))) return true;
  const { mtimeMs } = await stat(path);
  return now - mtimeMs > STALE_TEMP_AGE_MS;
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
