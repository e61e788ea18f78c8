// A durable ReActAgent on a SqliteSession, crashed with the harness of react-agent's durable
// tests (relative import: react-agent does not depend on this package, so no workspace cycle).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe } from 'vitest';
import type { WorldStore } from '../../../react-agent/test/durable/crashHarness.js';
import { crashSuite } from '../../../react-agent/test/durable/crashSuite.js';

const storeModule = fileURLToPath(new URL('./sqliteStore.ts', import.meta.url));
let dbDir: string;

beforeAll(async () => {
  dbDir = await mkdtemp(join(tmpdir(), 'rxagent-sqlite-crash-'));
});

afterAll(async () => {
  await rm(dbDir, { recursive: true, force: true });
});

describe('a durable ReActAgent on a SqliteSession killed with SIGKILL', { timeout: 120_000 }, () =>
  crashSuite((): WorldStore => ({ module: storeModule, options: dbDir })),
);
