import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { AgentHost, textOf } from '@rxagent/core';
import { EchoAgent } from '@rxagent/core/testing';
import { AgentWorker, RedisSession, RemoteAgent, RemoteRunError } from '@rxagent/redis';
import { type RedisServer, startRedisServer } from '@rxagent/redis/testing';
import { createClient } from 'redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runTs, type TsProcess } from '../../../scripts/testing/tsProcess.js';
import { describeRedis } from './describeRedis.js';

const workerProcess = fileURLToPath(new URL('./fixtures/workerProcess.ts', import.meta.url));
const GROUP = 'rxagent-workers';

/** Resolves once `condition()` holds, checked every 20 ms; rejects after `ms`. */
async function until(condition: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** The error `promise` rejected with (fails when it resolved). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describeRedis('AgentWorker maxDeliveries', () => {
  let server: RedisServer;
  let redis: ReturnType<typeof createClient>;
  beforeAll(async () => {
    server = await startRedisServer();
    redis = createClient({ url: server.url });
    await redis.connect();
  });
  afterAll(async () => {
    redis?.destroy();
    await server?.stop();
  });

  /** The entries of a stream, as `[id, fields]`. */
  async function entries(key: string): Promise<Array<[string, Record<string, string>]>> {
    const reply = (await redis.sendCommand(['XRANGE', key, '-', '+'])) as Array<[string, string[]]>;
    return reply.map(([id, flat]) => {
      const fields: Record<string, string> = {};
      for (let i = 0; i + 1 < flat.length; i += 2)
        fields[flat[i] as string] = flat[i + 1] as string;
      return [id, fields];
    });
  }

  it('dead-letters a run delivered maxDeliveries times: its caller errors, its entry is kept, its thread goes on', async () => {
    const queue = 'poison';
    await redis.sendCommand(['XGROUP', 'CREATE', queue, GROUP, '0', 'MKSTREAM']);
    const agent = (threadId: string) =>
      new RemoteAgent({ url: server.url, queue, threadId, name: 'assistant', timeoutMs: 20_000 });
    // One RemoteAgent per call in flight (an agent runs one call at a time).
    const [one, two, three] = [agent('t1'), agent('t2'), agent('t2')];
    // Three runs no worker serves yet: t1's, then two on t2 (positions 1 and 2).
    const poisoned = rejection(one.reply('poison'));
    await until(async () => (await entries(queue)).length === 1, 5_000, 'the first request');
    const first = two.reply('first on t2');
    await until(async () => (await entries(queue)).length === 2, 5_000, 'the second request');
    const skipped = rejection(three.reply('second on t2'));
    await until(async () => (await entries(queue)).length === 3, 5_000, 'the third request');
    // A worker that died took them all; t1's and t2's second were delivered 3 times already.
    await redis.sendCommand(['XREADGROUP', 'GROUP', GROUP, 'ghost', 'STREAMS', queue, '>']);
    const ids = (await entries(queue)).map(([id]) => id);
    const [poisonId, firstId, skippedId] = ids as [string, string, string];
    for (const id of [poisonId, skippedId]) {
      await redis.sendCommand(['XCLAIM', queue, GROUP, 'ghost', '0', id, 'RETRYCOUNT', '3']);
    }

    const session = new RedisSession({ url: server.url, prefix: `${queue}:s:` });
    const host = new AgentHost({ create: () => new EchoAgent({ name: 'assistant' }), session });
    const worker = new AgentWorker({
      url: server.url,
      queue,
      host,
      claimAfterMs: 300,
      maxDeliveries: 3,
    });
    await worker.start();
    try {
      const error = await poisoned;
      expect(error).toBeInstanceOf(RemoteRunError);
      const { runId, message } = error as RemoteRunError;
      expect(message).toContain(runId);
      expect(message).toMatch(/delivered 3 times \(maxDeliveries 3\)/);
      expect((error as RemoteRunError).remote.deliveries).toBe(3);
      // t2's first run (delivered once) ran; its second was given up, never started.
      expect(textOf(await first)).toBe('first on t2');
      expect(await skipped).toBeInstanceOf(RemoteRunError);

      // Both dead requests are kept with their fields and deliveries, and acknowledged.
      const dead = await entries(`${queue}:dead`);
      expect(dead.map(([, fields]) => [fields['runId'], fields['deliveries']])).toEqual([
        [runId, '3'],
        [expect.any(String), '3'],
      ]);
      expect(dead[0]?.[1]['threadId']).toBe('t1');
      expect(dead[1]?.[1]['input']).toContain('second on t2');
      const pending = (await redis.sendCommand(['XPENDING', queue, GROUP])) as [number];
      expect(pending[0]).toBe(0);
      expect((await entries(queue)).map(([id]) => id)).not.toContain(firstId);

      // Later calls on both threads are served: the dead positions do not block them.
      expect(textOf(await one.reply('next on t1'))).toBe('next on t1');
      expect(textOf(await two.reply('next on t2'))).toBe('next on t2');
    } finally {
      await worker.stop();
      await Promise.all([one.close(), two.close(), three.close(), session.close()]);
    }
  }, 60_000);

  it('ignores a malformed entry on the queue and keeps serving', async () => {
    const queue = 'malformed';
    await redis.sendCommand(['XGROUP', 'CREATE', queue, GROUP, '0', 'MKSTREAM']);
    await redis.sendCommand(['XADD', queue, '*', 'garbage', 'x']);
    await redis.sendCommand(['XADD', queue, '*', 'runId', 'r', 'threadId', 't', 'position', 'NaN']);
    const session = new RedisSession({ url: server.url, prefix: `${queue}:s:` });
    const host = new AgentHost({ create: () => new EchoAgent({ name: 'assistant' }), session });
    const worker = new AgentWorker({ url: server.url, queue, host, claimAfterMs: 300 });
    await worker.start();
    const agent = new RemoteAgent({ url: server.url, queue, threadId: 't', name: 'assistant' });
    try {
      expect(textOf(await agent.reply('still here?'))).toBe('still here?');
      await until(async () => worker.activeRuns === 0, 5_000, 'the run to leave the worker');
    } finally {
      await worker.stop();
      await Promise.all([agent.close(), session.close()]);
    }
  }, 30_000);

  // Worker processes start through tsx one after another on a busy machine: a generous limit.
  it('gives up a run that kills every worker taking it after maxDeliveries workers started it', {
    timeout: 120_000,
  }, async () => {
    const queue = 'poison-processes';
    const dir = mkdtempSync(join(tmpdir(), 'rxagent-poison-'));
    const log = join(dir, 'tools.log');
    writeFileSync(log, '');
    const started: TsProcess[] = [];
    const agent = new RemoteAgent({
      url: server.url,
      queue,
      threadId: 't',
      name: 'assistant',
      timeoutMs: 60_000,
    });
    try {
      const failed = rejection(agent.reply('Record this.'));
      for (let i = 0; i < 3; i++) {
        const worker = runTs(workerProcess, [
          server.url,
          queue,
          log,
          'kill-in-tool',
          'maxDeliveries=2',
        ]);
        started.push(worker);
        await Promise.race([
          new Promise<void>((resolve) => worker.child.once('exit', () => resolve())),
          failed,
        ]);
      }
      const error = await failed;
      expect(error).toBeInstanceOf(RemoteRunError);
      expect((error as Error).message).toMatch(/delivered 2 times/);
      // Two workers started it (and died in its tool); the third gave it up without starting it.
      const pids = readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split(' ')[0]);
      expect(pids).toEqual(started.slice(0, 2).map((worker) => String(worker.child.pid)));
      expect(started[2]?.child.exitCode).toBeNull();
      expect((await entries(`${queue}:dead`)).map(([, fields]) => fields['deliveries'])).toEqual([
        '2',
      ]);
    } finally {
      await Promise.all(started.map((worker) => worker.kill('SIGKILL')));
      await agent.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
