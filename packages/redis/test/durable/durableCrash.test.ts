// A durable ReActAgent on a RedisSession, crashed with the harness of react-agent's durable
// tests (relative import: react-agent does not depend on this package, so no workspace cycle).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RedisServer, redisServerAvailable, startRedisServer } from '@rxagent/redis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CrashWorld,
  conversationProblems,
  crashWorld,
  ledgerCounts,
  unfinishedIn,
  type WorldStore,
} from '../../../react-agent/test/durable/crashHarness.js';

const storeModule = fileURLToPath(new URL('./redisStore.ts', import.meta.url));
const store = (): WorldStore => ({ module: storeModule, options: redis!.url });

const available = redisServerAvailable();
let redis: RedisServer | undefined;
let world: CrashWorld | undefined;

beforeAll(async () => {
  if (available) redis = await startRedisServer();
}, 60_000);

afterAll(async () => {
  await world?.close();
  await redis?.stop();
});

describe.runIf(available)(
  'a durable ReActAgent on a RedisSession killed with SIGKILL',
  { timeout: 120_000 },
  () => {
    for (const killAt of ['chunk:3', 'tool:2', 'result:1', 'save:4']) {
      it(`recovers in a fresh process (killed at ${killAt})`, async () => {
        world = await crashWorld(2, store());
        expect((await world.run({ killAt })).killed).toBe(true);
        expect(await unfinishedIn(world)).toEqual(['run']);
        const recovered = await world.run();
        expect(recovered.lines.at(-1)).toBe('done');
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
      // The rest of turn 0 (the fee round, the answer; one charge) and turn 1 (three rounds; a
      // lookup and two charges): the winner's alone, for the loser sent nothing and ran nothing.
      const winnerRequests = world.server.requests.length - requestsBefore;
      expect(winnerRequests).toBe(5);
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
