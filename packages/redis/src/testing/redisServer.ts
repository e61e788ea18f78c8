import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkOptions } from '@rxagent/core';
import { freePort, stopProcess } from '@rxagent/core/testing';

/** How to install the server these helpers start, for skip and error messages. */
export const REDIS_INSTALL_HINT = 'apt-get install redis-server';

/** Options of `startRedisServer`. */
export interface RedisServerOptions {
  /** Keep an append-only file (fsync on every write), so a restart after a kill loses nothing. Default `false`. */
  readonly appendOnly?: boolean;
  /** The `redis-server` binary (default: the one on PATH). */
  readonly binary?: string;
  /** How long to wait for "Ready to accept connections" (default 10 s). */
  readonly startTimeoutMs?: number;
}

/** A `redis-server` child process on a loopback port, in its own temp directory. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** The process id of the running server (changes on `restart()`). */
  readonly pid: number;
  /** Kills the server with SIGKILL (no shutdown, no save) and waits for it to exit. */
  kill(): Promise<void>;
  /** Starts the server again on the same port and directory (after `kill()` or `stop()`). */
  restart(): Promise<void>;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and deletes its directory. Idempotent. */
  stop(): Promise<void>;
}

/** Whether a `redis-server` binary is on PATH. */
export function redisServerAvailable(binary = 'redis-server'): boolean {
  try {
    execFileSync(binary, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts a private `redis-server` on a free 127.0.0.1 port with a temp working directory, no
 * RDB snapshots and (unless `appendOnly`) no persistence. Resolves once it accepts
 * connections; rejects when the binary is missing or it does not start in time.
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  checkOptions(options, ['appendOnly', 'binary', 'startTimeoutMs'], 'startRedisServer');
  const binary = options.binary ?? 'redis-server';
  const dir = mkdtempSync(join(tmpdir(), 'rxagent-redis-'));
  const port = await freePort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--dir',
    dir,
    '--appendonly',
    options.appendOnly ? 'yes' : 'no',
    '--appendfsync',
    'always',
    '--daemonize',
    'no',
  ];
  const timeout = options.startTimeoutMs ?? 10_000;
  let child: ChildProcess;
  try {
    child = await launch(binary, args, timeout);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let stopped = false;
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get pid() {
      return child.pid ?? -1;
    },
    async kill() {
      await stopProcess(child, 'SIGKILL');
    },
    async restart() {
      await stopProcess(child, 'SIGKILL');
      child = await launch(binary, args, timeout);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await stopProcess(child, 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function launch(binary: string, args: string[], timeoutMs: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const timer = setTimeout(() => {
      fail(new Error(`redis-server did not start within ${timeoutMs} ms:\n${output.slice(-500)}`));
      child.kill('SIGKILL');
    }, timeoutMs);
    const onData = (data: Buffer): void => {
      output += data.toString();
      if (output.includes('Ready to accept connections')) {
        done();
        resolve(child);
      }
    };
    const onExit = (code: number | null): void =>
      fail(
        new Error(
          `redis-server exited with code ${code} before it was ready:\n${output.slice(-500)}`,
        ),
      );
    const onError = (error: Error): void =>
      fail(
        new Error(`could not run ${binary} (${error.message}); install it: ${REDIS_INSTALL_HINT}`),
      );
    function done(): void {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
      // Keep draining its output so the server never blocks on a full pipe.
      child.stdout?.resume();
      child.stderr?.resume();
    }
    function fail(error: Error): void {
      done();
      reject(error);
    }
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}
