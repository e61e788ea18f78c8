import { afterAll, beforeAll, describe } from 'vitest';
import {
  POSTGRES_INSTALL_HINT,
  type PostgresServer,
  postgresServerAvailable,
  startPostgresServer,
} from '../src/testing/postgresServer.js';

/**
 * `describe` for tests that need a real PostgreSQL: one server per test file, started in
 * `beforeAll` and stopped in `afterAll` (`server()` returns it inside tests). Skipped with one
 * line saying how to install it when Debian's `postgresql` is missing, except under
 * `CI=true`, where a missing server is a failure (CI installs it).
 */
export function describePostgres(name: string, body: (server: () => PostgresServer) => void): void {
  if (!postgresServerAvailable()) {
    if (process.env['CI'] === 'true') {
      throw new Error(
        `PostgreSQL is not installed, but CI=true needs it: ${POSTGRES_INSTALL_HINT}`,
      );
    }
    console.warn(`skipping "${name}": PostgreSQL not found (install it: ${POSTGRES_INSTALL_HINT})`);
    describe.skip(name, () => body(() => undefined as never));
    return;
  }
  let running: PostgresServer | undefined;
  describe(name, () => {
    beforeAll(async () => {
      running = await startPostgresServer();
    }, 120_000);
    afterAll(async () => {
      await running?.stop();
    }, 60_000);
    body(() => {
      if (running === undefined) throw new Error('the PostgreSQL server did not start');
      return running;
    });
  });
}
