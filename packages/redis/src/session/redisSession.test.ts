import {
  InvalidArgumentError,
  SessionConflictError,
  SessionCorruptError,
  StoreUnavailableError,
} from '@rxagent/core';
import { createClient } from 'redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeRedis } from '../../test/describeRedis.js';
import { type RedisServer, startRedisServer } from '../testing/redisServer.js';
import { RedisSession } from './redisSession.js';

describeRedis('RedisSession', () => {
  let server: RedisServer;
  const sessions: RedisSession[] = [];
  const open = (
    options: Partial<ConstructorParameters<typeof RedisSession>[0]> = {},
  ): RedisSession => {
    const session = new RedisSession({ url: server.url, ...options });
    sessions.push(session);
    return session;
  };

  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await Promise.all(sessions.map((session) => session.close()));
    await server?.stop();
  });

  it('saves, loads, lists and deletes state dicts under its prefix', async () => {
    const session = open({ prefix: 'crud:' });
    await session.save('bob', { version: 1, memory: [{ text: 'hi' }] });
    await session.save('alice', { version: 1, n: 2 });
    expect(await session.load('bob')).toEqual({ version: 1, memory: [{ text: 'hi' }] });
    expect(await session.list()).toEqual(['alice', 'bob']);
    await session.delete('bob');
    await session.delete('never-saved');
    expect(await session.load('bob')).toBeUndefined();
    expect(await session.list()).toEqual(['alice']);
  });

  it('lists only its own prefix, treating glob characters in it literally', async () => {
    const star = open({ prefix: 'p*:' });
    const other = open({ prefix: 'px:' });
    await star.save('a', { v: 1 });
    await other.save('b', { v: 1 });
    expect(await star.list()).toEqual(['a']);
    expect(await other.list()).toEqual(['b']);
  });

  it('lists every key through SCAN when there are more keys than one batch', async () => {
    const session = open({ prefix: 'many:' });
    const keys = Array.from({ length: 1200 }, (_, i) => `k${String(i).padStart(4, '0')}`);
    await Promise.all(keys.map((key) => session.save(key, { i: 1 })));
    expect(await session.list()).toEqual(keys);
  });

  it('counts versions from 1 and saves only at the expected version', async () => {
    const session = open({ prefix: 'ver:' });
    expect(await session.loadVersioned('k')).toBeUndefined();
    expect(await session.saveVersioned('k', { step: 1 }, { expectedVersion: 0 })).toBe(1);
    expect(await session.loadVersioned('k')).toEqual({ state: { step: 1 }, version: 1 });
    await session.save('k', { step: 2 }, { expectedVersion: 1 });
    const stale = session.save('k', { step: 'lost' }, { expectedVersion: 1 });
    await expect(stale).rejects.toBeInstanceOf(SessionConflictError);
    await expect(stale).rejects.toMatchObject({
      code: 'SESSION_CONFLICT',
      key: 'k',
      expectedVersion: 1,
      actualVersion: 2,
    });
    expect(await session.loadVersioned('k')).toEqual({ state: { step: 2 }, version: 2 });
    await expect(session.save('k', { step: 3 }, { expectedVersion: 0 })).rejects.toBeInstanceOf(
      SessionConflictError,
    );
  });

  it('detects a conflicting save between two servers in 50 of 50 races', async () => {
    const serverA = open({ prefix: 'race:' });
    const serverB = open({ prefix: 'race:' });
    let conflicts = 0;
    for (let round = 0; round < 50; round++) {
      const key = `conv-${round}`;
      await serverA.save(key, { turns: [] });
      const [a, b] = await Promise.all([serverA.loadVersioned(key), serverB.loadVersioned(key)]);
      const results = await Promise.allSettled([
        serverA.save(key, { turns: ['from A'] }, { expectedVersion: a?.version ?? -1 }),
        serverB.save(key, { turns: ['from B'] }, { expectedVersion: b?.version ?? -1 }),
      ]);
      const rejected = results.filter((result) => result.status === 'rejected');
      expect(rejected).toHaveLength(1);
      expect((rejected[0] as PromiseRejectedResult).reason).toBeInstanceOf(SessionConflictError);
      const winner = results[0]?.status === 'fulfilled' ? 'from A' : 'from B';
      expect(await serverA.load(key)).toEqual({ turns: [winner] });
      conflicts++;
    }
    expect(conflicts).toBe(50);
  });

  it('sets the TTL on every save when ttlSeconds is given, and none otherwise', async () => {
    const client = createClient({ url: server.url });
    await client.connect();
    try {
      await open({ prefix: 'ttl:', ttlSeconds: 60 }).save('k', { a: 1 });
      const ttl = await client.ttl('ttl:k');
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60);
      await open({ prefix: 'ttl:' }).save('k', { a: 2 });
      expect(await client.ttl('ttl:k')).toBe(-1);
    } finally {
      client.destroy();
    }
  });

  it('rejects a corrupt stored value with SessionCorruptError naming the Redis key', async () => {
    const client = createClient({ url: server.url });
    await client.connect();
    const session = open({ prefix: 'bad:' });
    try {
      await client.set('bad:string', 'hello');
      await client.hSet('bad:json', { format: '1', version: '3', state: '{"a":' });
      await client.hSet('bad:format', { format: '9', version: '1', state: '{}' });
      await client.hSet('bad:array', { format: '1', version: '1', state: '[1]' });
      for (const key of ['string', 'json', 'format', 'array']) {
        const load = session.load(key);
        await expect(load).rejects.toBeInstanceOf(SessionCorruptError);
        await expect(load).rejects.toMatchObject({ path: `bad:${key}` });
        await expect(session.load(key)).rejects.toThrow(`bad:${key}`);
      }
      await expect(session.save('string', { a: 1 })).rejects.toBeInstanceOf(SessionCorruptError);
      expect(await client.get('bad:string')).toBe('hello');
    } finally {
      client.destroy();
    }
  });

  it("rejects another program's hash under a session key, and never writes into it", async () => {
    const client = createClient({ url: server.url });
    await client.connect();
    const session = open({ prefix: 'foreign:' });
    try {
      const hashes: Record<string, Record<string, string>> = {
        cart: { user: 'ann', items: '3' },
        partial: { format: '1', state: '{}' },
        extra: { format: '1', version: '2', state: '{"a":1}', owner: 'billing' },
        newer: { format: '2', version: '1', state: '{}' },
      };
      for (const [key, fields] of Object.entries(hashes))
        await client.hSet(`foreign:${key}`, fields);
      for (const [key, fields] of Object.entries(hashes)) {
        const redisKey = `foreign:${key}`;
        for (const read of [session.load(key), session.loadVersioned(key)]) {
          await expect(read).rejects.toBeInstanceOf(SessionCorruptError);
          await expect(read).rejects.toMatchObject({ code: 'SESSION_CORRUPT', path: redisKey });
        }
        await expect(session.load(key)).rejects.toThrow(`Session ${redisKey} in Redis`);
        for (const save of [
          session.save(key, { mine: true }),
          session.save(key, { mine: true }, { expectedVersion: 0 }),
          session.saveVersioned(key, { mine: true }),
        ]) {
          await expect(save).rejects.toBeInstanceOf(SessionCorruptError);
          await expect(save).rejects.toThrow(redisKey);
        }
        expect(await client.hGetAll(redisKey)).toEqual(fields);
      }
      // A session of our own is still loaded and saved as before.
      await session.save('mine', { n: 1 });
      expect(await session.loadVersioned('mine')).toEqual({ state: { n: 1 }, version: 1 });
    } finally {
      client.destroy();
    }
  });

  it('rejects a bad key, state or version before touching Redis', async () => {
    const session = open({ url: 'redis://127.0.0.1:1' });
    await expect(session.save('', { a: 1 })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(session.save('k', { a: Number.NaN })).rejects.toThrow('state.a is NaN');
    await expect(session.save('k', { a: 1 }, { expectedVersion: -1 })).rejects.toThrow(
      'expectedVersion',
    );
    await expect(session.load(3 as unknown as string)).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(() => new RedisSession({ ttlSeconds: 1.5 })).toThrow(InvalidArgumentError);
  });

  it('fails within its bounded wait, with StoreUnavailableError, when Redis is not there', async () => {
    const session = open({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 300 });
    const started = performance.now();
    await expect(session.load('k')).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(session.list()).rejects.toThrow(/not reachable or did not answer within 300 ms/);
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('uses a client you pass and leaves it open on close()', async () => {
    const client = createClient({ url: server.url });
    const session = new RedisSession({ client, prefix: 'own:' });
    await session.save('k', { a: 1 });
    await session.close();
    expect(client.isReady).toBe(true);
    expect(await client.hGet('own:k', 'version')).toBe('1');
    client.destroy();
  });
});
