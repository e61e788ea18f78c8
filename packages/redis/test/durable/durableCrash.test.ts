// A durable ReActAgent on a RedisSession, crashed with the harness of react-agent's durable
// tests (relative import: react-agent does not depend on this package, so no workspace cycle).
import { fileURLToPath } from 'node:url';
import { type RedisServer, redisServerAvailable, startRedisServer } from '@rxagent/redis/testing';
import { afterAll, beforeAll, describe } from 'vitest';
import type { WorldStore } from '../../../react-agent/test/durable/crashHarness.js';
import { crashSuite } from '../../../react-agent/test/durable/crashSuite.js';

const storeModule = fileURLToPath(new URL('./redisStore.ts', import.meta.url));
const available = redisServerAvailable();
let redis: RedisServer | undefined;

beforeAll(async () => {
  if (available) redis = await startRedisServer();
}, 60_000);

afterAll(async () => {
  await redis?.stop();
});

describe.runIf(available)(
  'a durable ReActAgent on a RedisSession killed with SIGKILL',
  { timeout: 120_000 },
  () => crashSuite((): WorldStore => ({ module: storeModule, options: redis!.url })),
);
