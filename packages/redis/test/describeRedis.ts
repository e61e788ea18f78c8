import { describe } from 'vitest';
import { REDIS_INSTALL_HINT, redisServerAvailable } from '../src/testing/redisServer.js';

let checked: boolean | undefined;

/**
 * `describe` for tests that need a real `redis-server`: skipped with one line saying how to
 * install it when the binary is missing, except under `CI=true`, where a missing server is a
 * failure (CI installs it).
 */
export function describeRedis(name: string, body: () => void): void {
  checked ??= redisServerAvailable();
  if (checked) {
    describe(name, body);
    return;
  }
  if (process.env['CI'] === 'true') {
    throw new Error(`redis-server is not installed, but CI=true needs it: ${REDIS_INSTALL_HINT}`);
  }
  console.warn(`skipping "${name}": redis-server not found (install it: ${REDIS_INSTALL_HINT})`);
  describe.skip(name, body);
}
