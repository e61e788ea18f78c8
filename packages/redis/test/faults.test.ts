import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StoreUnavailableError, userMsg } from '@rxagent/core';
import { EchoAgent } from '@rxagent/core/testing';
import { RedisInterrupts, RedisMsgHub, RedisSession } from '@rxagent/redis';
import { type RedisServer, startRedisServer } from '@rxagent/redis/testing';
import { lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runTs, type TsProcess } from '../../../scripts/testing/tsProcess.js';
import { describeRedis } from './describeRedis.js';
import { nextDeliveries, nextError, texts } from './hubEvents.js';
import { LongJobAgent } from './longJobAgent.js';

const participantProcess = fileURLToPath(
  new URL('./fixtures/participantProcess.ts', import.meta.url),
);

describeRedis('@rxagent/redis under faults', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer({ appendOnly: true });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('resumes hub delivery with no duplicate and no gap, and sessions fail clearly while Redis is down', async () => {
    const [alice, bob] = [
      new EchoAgent({ name: 'alice', prefix: 'alice:' }),
      new EchoAgent({ name: 'bob', prefix: 'bob:' }),
    ];
    const [left, right] = [new EchoAgent({ name: 'left' }), new EchoAgent({ name: 'right' })];
    const options = { url: server.url, topic: 'faults', blockMs: 200, commandTimeoutMs: 500 };
    const one = new RedisMsgHub({ ...options, participants: [alice, left] });
    const two = new RedisMsgHub({ ...options, participants: [bob, right] });
    const session = new RedisSession({ url: server.url, commandTimeoutMs: 500 });
    try {
      await lastValueFrom(one.enter());
      await lastValueFrom(two.enter());
      await session.save('conversation', { turn: 1 });
      const before = nextDeliveries(two, 6);
      for (let turn = 1; turn <= 3; turn++) {
        await lastValueFrom(alice.call(userMsg(`a${turn}`)));
        await lastValueFrom(bob.call(userMsg(`b${turn}`)));
      }
      await before;

      const clients = await Promise.all([one.client(), two.client(), session.client()]);
      const hubNoticed = nextError(one);
      await server.kill();
      expect(await hubNoticed).toBeInstanceOf(StoreUnavailableError);
      // Each operation fails within its bounded wait (500 ms here), plus scheduling slack.
      await expect(timed(session.load('conversation'))).resolves.toBeLessThan(900);
      await expect(session.load('conversation')).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(session.save('conversation', { turn: 2 })).rejects.toThrow(
        /Redis is not reachable/,
      );
      await expect(timed(lastValueFrom(alice.call(userMsg('lost'))))).resolves.toBeLessThan(900);
      await expect(lastValueFrom(alice.call(userMsg('lost')))).rejects.toBeInstanceOf(
        StoreUnavailableError,
      );

      await server.restart();
      await Promise.all(
        clients.map((client) => (client.isReady ? undefined : once(client, 'ready'))),
      );
      expect(await session.load('conversation')).toEqual({ turn: 1 });
      await session.save('conversation', { turn: 2 });
      expect(await session.load('conversation')).toEqual({ turn: 2 });

      const after = nextDeliveries(one, 6);
      const afterTwo = nextDeliveries(two, 6);
      for (let turn = 4; turn <= 6; turn++) {
        await lastValueFrom(alice.call(userMsg(`a${turn}`)));
        await lastValueFrom(bob.call(userMsg(`b${turn}`)));
      }
      await Promise.all([after, afterTwo]);
      const expected = [1, 2, 3, 4, 5, 6].flatMap((turn) => [`alice:a${turn}`, `bob:b${turn}`]);
      expect(texts(left.observed)).toEqual(expected);
      expect(texts(right.observed)).toEqual(expected);
      expect(texts(alice.observed)).toEqual(expected.filter((text) => text.startsWith('bob')));
      expect(texts(bob.observed)).toEqual(expected.filter((text) => text.startsWith('alice')));
    } finally {
      await Promise.all([one.close(), two.close(), session.close()]);
    }
  });

  it('keeps interrupts working after Redis restarts (subscriptions are renewed)', async () => {
    const worker = new LongJobAgent({ name: 'worker' });
    const here = new RedisInterrupts({ url: server.url, commandTimeoutMs: 500 });
    const there = new RedisInterrupts({ url: server.url, commandTimeoutMs: 500 });
    try {
      await here.attach(worker, 'job');
      const clients = await Promise.all([here.client(), there.client()]);
      await server.kill();
      await expect(there.interrupt('job')).rejects.toBeInstanceOf(StoreUnavailableError);
      await server.restart();
      await Promise.all(
        clients.map((client) => (client.isReady ? undefined : once(client, 'ready'))),
      );
      const reply = lastValueFrom(worker.call(userMsg('long job')));
      // The subscriber connection reconnects on its own schedule: interrupt until it hears.
      let receivers = 0;
      for (let attempt = 0; attempt < 100 && receivers === 0; attempt++) {
        receivers = await there.interrupt('job', userMsg('stop'));
        if (receivers === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(receivers).toBe(1);
      expect((await reply).metadata['interrupted']).toBe(true);
    } finally {
      await Promise.all([here.close(), there.close()]);
    }
  });

  // Two Node processes start one after the other (tsx compiles on the way in): a generous limit.
  it('has a participant process killed with SIGKILL resume where it stopped when restarted', {
    timeout: 90_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rxagent-participant-'));
    const log = join(dir, 'dave.log');
    const args = [server.url, 'kill-test', log];
    const host = new RedisMsgHub({
      url: server.url,
      topic: 'kill-test',
      participants: [new EchoAgent({ name: 'host' })],
      blockMs: 200,
    });
    const started: TsProcess[] = [];
    try {
      const first = runTs(participantProcess, args);
      started.push(first);
      await first.waitFor('ready');
      await lastValueFrom(host.enter());
      for (let i = 1; i <= 5; i++) await lastValueFrom(host.broadcast(userMsg(`m${i}`)));
      await first.waitFor('delivered m5');
      await first.kill('SIGKILL');

      for (let i = 6; i <= 10; i++) await lastValueFrom(host.broadcast(userMsg(`m${i}`)));
      const second = runTs(participantProcess, args);
      started.push(second);
      await second.waitFor('delivered m10');
      await second.kill('SIGTERM');
      const observed = readFileSync(log, 'utf8').trim().split('\n');
      expect(observed).toEqual(Array.from({ length: 10 }, (_, i) => `m${i + 1}`));
    } finally {
      // Processes first: none may still write to the log being deleted.
      await Promise.all(started.map((child) => child.kill('SIGKILL')));
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** How long `promise` took to reject, in ms; rejects when it resolved. */
async function timed(promise: Promise<unknown>): Promise<number> {
  const started = performance.now();
  try {
    await promise;
  } catch {
    return performance.now() - started;
  }
  throw new Error('expected the operation to fail while Redis is down');
}
