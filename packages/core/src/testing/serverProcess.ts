// What the helpers that start a real server for tests (Redis, PostgreSQL, Restate) share.
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/**
 * A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, then released), for
 * a server a test starts.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Sends `signal` to `child` and resolves once it exited; SIGKILL follows after
 * `forceAfterMs` (default 5 s) when it has not, so a hung server never holds a test.
 * Resolves at once when it already exited.
 */
export function stopProcess(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGTERM',
  forceAfterMs = 5_000,
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), forceAfterMs);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill(signal);
  });
}
