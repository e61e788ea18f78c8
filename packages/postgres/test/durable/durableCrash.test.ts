// A durable ReActAgent on a PostgresSession, crashed with the harness of react-agent's durable
// tests (relative import: react-agent does not depend on this package, so no workspace cycle).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  POSTGRES_INSTALL_HINT,
  type PostgresServer,
  postgresServerAvailable,
  startPostgresServer,
} from '@rxagent/postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CrashWorld,
  conversationProblems,
  crashWorld,
  ledgerCounts,
  unfinishedIn,
  type WorldStore,
} from '../../../react-agent/test/durable/crashHarness.js';

const storeModule = fileURLToPath(new URL('./postgresStore.ts', import.meta.url));
const store = (): WorldStore => ({ module: storeModule, options: postgres!.connectionString });

const available = postgresServerAvailable();
if (!available && process.env['CI'] === 'true') {
  throw new Error(`PostgreSQL is not installed, but CI=true needs it: ${POSTGRES_INSTALL_HINT}`);
}
if (!available)
  console.warn(`skipping: PostgreSQL not found (install it: ${POSTGRES_INSTALL_HINT})`);
let postgres: PostgresServer | undefined;
let world: CrashWorld | undefined;

beforeAll(async () => {
  if (available) postgres = await startPostgresServer();
}, 120_000);

afterAll(async () => {
  await world?.close();
  await postgres?.stop();
}, 60_000);

describe.runIf(available)(
  'a durable ReActAgent on a PostgresSession killed with SIGKILL',
  { timeout: 120_000 },
  () => {
    // Mid-stream, mid-tool (the in-doubt charge), after a stored result, and mid-save.
    for (const killAt of ['chunk:3', 'tool:2', 'result:1', 'save:4', 'save:9']) {
      it(`recovers in a fresh process (killed at ${killAt})`, async () => {
        world = await crashWorld(2, store());
        expect((await world.run({ killAt })).killed).toBe(true);
        expect(await unfinishedIn(world)).toEqual(['run']);
        const recovered = await world.run();
        expect(recovered.lines.at(-1)).toBe('done');
        expect(recovered.lines.filter((line) => line.startsWith('reply '))).toHaveLength(
          recovered.lines.length - 1,
        );
        expect(await unfinishedIn(world)).toEqual([]);
        expect(await conversationProblems(world)).toEqual([]);
        await world.close();
        world = undefined;
      });
    }

    it('lets one of two processes recovering one key proceed; the other conflicts before any side effect', async () => {
      world = await crashWorld(2, store());
      expect((await world.run({ killAt: 'result:1' })).killed).toBe(true);
      const requestsBefore = world.server.requests.length;
      const ledgerBefore = sum(await ledgerCounts(world.ledger));
      const raceDir = join(world.dir, 'race');
      await mkdir(raceDir);
      const [a, b] = await Promise.all([world.run({ raceDir }), world.run({ raceDir })]);
      expect([a.lines.at(-1), b.lines.at(-1)].sort()).toEqual(['conflict', 'done']);
      const loser = a.lines.at(-1) === 'conflict' ? a : b;
      expect(loser.lines).toEqual(['conflict']);
      expect(world.server.requests.length - requestsBefore).toBe(5);
      expect(sum(await ledgerCounts(world.ledger))).toBe(ledgerBefore + 4);
      expect(await unfinishedIn(world)).toEqual([]);
      expect(await conversationProblems(world)).toEqual([]);
      await world.close();
      world = undefined;
    });
  },
);

function sum(counts: Map<string, number>): number {
  return [...counts.values()].reduce((a, b) => a + b, 0);
}
