import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { checkOptions } from '@rxagent/core';
import { freePort } from '@rxagent/core/testing';

const run = promisify(execFile);

/** How to install the server these helpers start, for skip and error messages. */
export const POSTGRES_INSTALL_HINT = 'apt-get install postgresql';

/** Where Debian's `postgresql` package puts `initdb` and `pg_ctl`, newest first. */
const DEBIAN_BIN_DIRS = ['17', '16', '15', '14', '13'].map((v) => `/usr/lib/postgresql/${v}/bin`);

/** Options of `startPostgresServer`. */
export interface PostgresServerOptions {
  /** The directory holding `initdb` and `pg_ctl` (default: the newest of Debian's). */
  readonly binDir?: string;
  /** How long `initdb` plus `pg_ctl start` may take (default 60 s). */
  readonly startTimeoutMs?: number;
}

/** A PostgreSQL server on a loopback port, in its own temporary directory. */
export interface PostgresServer {
  /** `postgresql://rxagent@127.0.0.1:<port>/postgres` (trust authentication). */
  readonly connectionString: string;
  readonly port: number;
  /** Stops the server at once (`pg_ctl stop -m immediate`), keeping its data. */
  kill(): Promise<void>;
  /** Starts it again on the same port and data directory (after `kill()`). */
  restart(): Promise<void>;
  /** Stops the server (immediate mode) and deletes its directory. Idempotent. */
  stop(): Promise<void>;
}

/** The directory of Debian's PostgreSQL binaries, or `undefined` when none is installed. */
export function postgresBinDir(): string | undefined {
  return DEBIAN_BIN_DIRS.find((dir) => existsSync(join(dir, 'pg_ctl')));
}

/** Whether a PostgreSQL server can be started here (Debian's `postgresql` package is installed). */
export function postgresServerAvailable(): boolean {
  return postgresBinDir() !== undefined;
}

/**
 * Starts a private PostgreSQL on a free 127.0.0.1 port: `initdb` into a temporary directory
 * (trust authentication, user `rxagent`), then `pg_ctl start` with `fsync=off` (for speed:
 * a test server's data need not survive a power cut). The server refuses to run as root, so
 * when this process is root both run as the `postgres` user through `runuser`, in a directory
 * owned by it. Resolves once the server accepts connections.
 */
export async function startPostgresServer(
  options: PostgresServerOptions = {},
): Promise<PostgresServer> {
  checkOptions(options, ['binDir', 'startTimeoutMs'], 'startPostgresServer');
  const bin = options.binDir ?? postgresBinDir();
  if (bin === undefined) {
    throw new Error(`PostgreSQL is not installed (${POSTGRES_INSTALL_HINT}).`);
  }
  const timeout = options.startTimeoutMs ?? 60_000;
  const dir = mkdtempSync(join(tmpdir(), 'rxagent-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const tool = (name: string, args: string[], ms = timeout) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', join(bin, name), ...args], { timeout: ms })
      : run(join(bin, name), args, { timeout: ms });
  const data = join(dir, 'data');
  const port = await freePort();
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () =>
    tool('pg_ctl', ['-D', data, '-o', settings, '-l', join(dir, 'log'), '-w', 'start']);
  const halt = () => tool('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'], 30_000);
  try {
    await tool('initdb', ['-D', data, '-A', 'trust', '-U', 'rxagent', '-E', 'UTF8', '--no-sync']);
    await start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let running = true;
  let removed = false;
  return {
    connectionString: `postgresql://rxagent@127.0.0.1:${port}/postgres`,
    port,
    async kill() {
      if (!running) return;
      await halt();
      running = false;
    },
    async restart() {
      if (running) return;
      await start();
      running = true;
    },
    async stop() {
      if (removed) return;
      try {
        if (running) await halt();
      } finally {
        running = false;
        removed = true;
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
