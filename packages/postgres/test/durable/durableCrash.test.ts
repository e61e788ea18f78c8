// A durable ReActAgent on a PostgresSession, crashed with the harness of react-agent's durable
// tests (relative import: react-agent does not depend on this package, so no workspace cycle).
import { fileURLToPath } from 'node:url';
import {
  POSTGRES_INSTALL_HINT,
  type PostgresServer,
  postgresServerAvailable,
  startPostgresServer,
} from '@rxagent/postgres/testing';
import { afterAll, beforeAll, describe } from 'vitest';
import type { WorldStore } from '../../../react-agent/test/durable/crashHarness.js';
import { crashSuite } from '../../../react-agent/test/durable/crashSuite.js';

const storeModule = fileURLToPath(new URL('./postgresStore.ts', import.meta.url));
const available = postgresServerAvailable();
if (!available && process.env['CI'] === 'true') {
  throw new Error(`PostgreSQL is not installed, but CI=true needs it: ${POSTGRES_INSTALL_HINT}`);
}
if (!available)
  console.warn(`skipping: PostgreSQL not found (install it: ${POSTGRES_INSTALL_HINT})`);
let postgres: PostgresServer | undefined;

beforeAll(async () => {
  if (available) postgres = await startPostgresServer();
}, 120_000);

afterAll(async () => {
  await postgres?.stop();
}, 60_000);

describe.runIf(available)(
  'a durable ReActAgent on a PostgresSession killed with SIGKILL',
  { timeout: 120_000 },
  () =>
    crashSuite((): WorldStore => ({ module: storeModule, options: postgres!.connectionString })),
);
