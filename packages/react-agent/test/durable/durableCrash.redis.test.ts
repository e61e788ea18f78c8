import { type RedisServer, redisServerAvailable, startRedisServer } from '@rxagent/redis/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CrashWorld, conversationProblems, crashWorld, unfinishedIn } from './crashHarness.js';

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
        world = await crashWorld(2, redis!.url);
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
  },
);
