import { sessionConformance } from '@rxagent/core/testing';
import { afterAll, beforeAll } from 'vitest';
import { RedisSession } from '../src/session/redisSession.js';
import { type RedisServer, startRedisServer } from '../src/testing/redisServer.js';
import { describeRedis } from './describeRedis.js';

describeRedis('RedisSession', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  // Each test gets a prefix of its own: an empty session on the one server.
  let n = 0;
  sessionConformance(
    'RedisSession',
    () => new RedisSession({ url: server.url, prefix: `conformance${n++}:` }),
  );
});
