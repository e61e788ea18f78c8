import { StoreUnavailableError } from '@rxagent/core';
import { EchoAgent } from '@rxagent/core/testing';
import { createClient } from 'redis';
import { lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeRedis } from '../../test/describeRedis.js';
import { RedisMsgHub } from '../hub/redisMsgHub.js';
import { RedisInterrupts } from '../interrupt/redisInterrupts.js';
import { RedisSession } from '../session/redisSession.js';
import { type RedisServer, startRedisServer } from '../testing/redisServer.js';

const handles = (): string[] =>
  process.getActiveResourcesInfo().filter((kind) => kind === 'TCPSocketWrap' || kind === 'Timeout');

/** The handle count once it is down to `expected` (or below), or what it is after 2 s. */
async function settlesTo(expected: number): Promise<number> {
  const deadline = performance.now() + 2_000;
  while (handles().length > expected && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return handles().length;
}

describeRedis('RedisConnection (through the public classes)', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('leaves no socket, timer or listener behind after close()', async () => {
    const before = handles().length;
    const agent = new EchoAgent({ name: 'a' });
    const session = new RedisSession({ url: server.url });
    const hub = new RedisMsgHub({ url: server.url, topic: 'leak', participants: [agent] });
    const interrupts = new RedisInterrupts({ url: server.url });
    await session.save('k', { a: 1 });
    await lastValueFrom(hub.enter());
    await interrupts.attach(agent, 'k');
    await interrupts.interrupt('k');
    expect(handles().length).toBeGreaterThan(before);
    await Promise.all([session.close(), hub.close(), interrupts.close()]);
    // A destroyed socket's handle is released by libuv a loop turn or two later.
    expect(await settlesTo(before)).toBeLessThanOrEqual(before);
  });

  it('leaves no socket behind when a hub is closed while its reader is still connecting', async () => {
    const before = handles().length;
    for (let i = 0; i < 5; i++) {
      const hub = new RedisMsgHub({
        url: server.url,
        topic: 'quick',
        participants: [new EchoAgent({ name: 'q' })],
      });
      await lastValueFrom(hub.enter());
      await hub.close();
    }
    expect(await settlesTo(before)).toBeLessThanOrEqual(before);
  });

  it("borrows a caller's client: connects it when needed, closes only its own duplicates", async () => {
    const client = createClient({ url: server.url });
    const errorListeners = client.listenerCount('error');
    const agent = new EchoAgent({ name: 'b' });
    const hub = new RedisMsgHub({ client, topic: 'borrowed', participants: [agent] });
    const interrupts = new RedisInterrupts({ client });
    await lastValueFrom(hub.enter());
    await interrupts.attach(agent, 'k');
    await Promise.all([hub.close(), interrupts.close()]);
    expect(client.isReady).toBe(true);
    expect(client.listenerCount('error')).toBe(errorListeners);
    expect(await client.ping()).toBe('PONG');
    client.destroy();
  });

  it('fails every operation after close() instead of reconnecting', async () => {
    const session = new RedisSession({ url: server.url });
    await session.save('k', { a: 1 });
    await session.close();
    await session.close();
    await expect(session.load('k')).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(session.load('k')).rejects.toThrow(/after close\(\)/);
  });

  it('fails each command within commandTimeoutMs while Redis stalls (SIGSTOP), connecting or connected, and closes without waiting for it', async () => {
    const stalled = await startRedisServer();
    const session = new RedisSession({ url: stalled.url, commandTimeoutMs: 1_000 });
    const fresh = new RedisSession({ url: stalled.url, commandTimeoutMs: 1_000 });
    await session.save('k', { a: 1 });
    process.kill(stalled.pid, 'SIGSTOP');
    try {
      const operations = [
        () => session.load('k'),
        () => session.save('k', { a: 2 }),
        () => session.loadVersioned('k'),
        () => fresh.load('k'),
        () => fresh.load('k'),
      ];
      for (const operation of operations) {
        const started = performance.now();
        await expect(operation()).rejects.toThrow(/did not answer within 1000 ms/);
        // The bound, plus scheduling slack on a busy machine; never twice the bound.
        expect(performance.now() - started).toBeLessThan(1_700);
      }
      const started = performance.now();
      await Promise.all([session.close(), fresh.close()]);
      expect(performance.now() - started).toBeLessThan(1_700);
    } finally {
      process.kill(stalled.pid, 'SIGCONT');
      await stalled.stop();
    }
  });
});
