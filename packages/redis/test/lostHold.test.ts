import { setTimeout as sleep } from 'node:timers/promises';
import { AgentHost, type ChatRequest, Toolkit, textOf, tool } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { AgentWorker, RedisSession, RemoteAgent } from '@rxagent/redis';
import { type RedisServer, startRedisServer } from '@rxagent/redis/testing';
import { createClient } from 'redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { describeRedis } from './describeRedis.js';

const GROUP = 'rxagent-workers';

/** Resolves once `condition()` holds, checked every 10 ms; rejects after `ms`. */
async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describeRedis('AgentWorker and its hold on runs', () => {
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

  it('stops the run at once (its tool is cancelled, no further step starts) and leaves it to the claimer', async () => {
    const queue = 'stolen';
    const claimAfterMs = 900;
    const started: number[] = [];
    const cancelled: number[] = [];
    const slow = tool({
      name: 'slow',
      description: 'Takes its time.',
      parameters: z.object({}),
      execute: (_args, { signal }) =>
        new Promise<string>((resolve) => {
          started.push(performance.now());
          const timer = setTimeout(() => resolve('slow done'), 1_500);
          signal?.addEventListener('abort', () => {
            cancelled.push(performance.now());
            clearTimeout(timer);
          });
        }),
    });
    const model = new ScriptedChatModel(
      Array.from(
        { length: 20 },
        () => (request: ChatRequest) =>
          request.messages.at(-1)?.role === 'tool'
            ? 'finished'
            : { toolCalls: [{ name: 'slow', arguments: {} }] },
      ),
    );
    const session = new RedisSession({ url: server.url, prefix: `${queue}:s:` });
    const host = new AgentHost({
      create: () =>
        new ReActAgent({ name: 'assistant', sysPrompt: '', model, toolkit: new Toolkit([slow]) }),
      session,
    });
    const worker = new AgentWorker({ url: server.url, queue, host, claimAfterMs });
    await worker.start();
    const agent = new RemoteAgent({ url: server.url, queue, threadId: 't', name: 'assistant' });
    try {
      const reply = agent.reply('go');
      await until(() => started.length === 1, 10_000, 'the tool to start');
      const requestsBefore = model.requests.length;
      // Another consumer claims the run's request (as a worker that thought it silent would).
      const pending = (await redis.sendCommand(['XPENDING', queue, GROUP, '-', '+', '1'])) as [
        [string],
      ];
      const claimedAt = performance.now();
      await redis.sendCommand(['XCLAIM', queue, GROUP, 'thief', '0', pending[0][0]]);

      // Within a renewal beat (a third of claimAfterMs), the worker cancels its tool.
      await until(() => cancelled.length === 1, 5_000, 'the tool to be cancelled');
      expect((cancelled[0] ?? 0) - claimedAt).toBeLessThan(claimAfterMs / 3 + 500);
      // No further step of the lost run: no model request until the run is claimed back.
      expect(model.requests.length).toBe(requestsBefore);

      // The thief never runs it; once it looks silent, this worker claims it and finishes it.
      expect(textOf(await reply)).toBe('finished');
      expect(started.length).toBe(2);
    } finally {
      await worker.stop();
      await Promise.all([agent.close(), session.close()]);
    }
  }, 30_000);

  it('stop() hands a run still waiting for its thread back to the queue at once, and finishes the running one', async () => {
    const queue = 'handover';
    let release = (): void => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const wait = tool({
      name: 'wait',
      description: 'Waits.',
      parameters: z.object({}),
      execute: async () => {
        await gate;
        return 'waited';
      },
    });
    const model = new ScriptedChatModel(
      Array.from({ length: 20 }, () => (request: ChatRequest) => {
        const last = request.messages.at(-1);
        if (last?.role === 'tool') return 'first done';
        return last?.content === 'first'
          ? { toolCalls: [{ name: 'wait', arguments: {} }] }
          : 'second done';
      }),
    );
    const session = new RedisSession({ url: server.url, prefix: `${queue}:s:` });
    const made: string[] = [];
    const host = (label: string) =>
      new AgentHost({
        create: () => {
          made.push(label);
          return new ReActAgent({
            name: 'assistant',
            sysPrompt: '',
            model,
            toolkit: new Toolkit([wait]),
          });
        },
        session,
      });
    const a = new AgentWorker({ url: server.url, queue, host: host('a'), claimAfterMs: 5_000 });
    const b = new AgentWorker({ url: server.url, queue, host: host('b'), claimAfterMs: 5_000 });
    const agent = (threadId: string) =>
      new RemoteAgent({ url: server.url, queue, threadId, name: 'assistant' });
    const [one, two] = [agent('t'), agent('t')];
    await a.start();
    try {
      const first = one.reply('first');
      await until(() => model.requests.length === 1, 10_000, 'the first call to reach its tool');
      const second = two.reply('second');
      await until(() => a.activeRuns === 2, 10_000, 'worker a to take the second run');
      await b.start();
      const stopping = a.stop();
      let stopped = false;
      void stopping.then(() => (stopped = true));
      // b gets the waiting run now (not after claimAfterMs): it waits for the thread there.
      await until(() => b.activeRuns === 1, 4_000, 'the waiting run to reach worker b');
      expect(stopped).toBe(false);
      release();
      await stopping;
      expect(textOf(await first)).toBe('first done');
      expect(textOf(await second)).toBe('second done');
      expect(made).toEqual(['a', 'b']);
    } finally {
      release();
      await Promise.all([a.stop(), b.stop()]);
      await Promise.all([one.close(), two.close(), session.close()]);
    }
  }, 30_000);

  it('stop() resolves within claimAfterMs + commandTimeoutMs while Redis stalls, giving up the running call', async () => {
    const stalled = await startRedisServer();
    const queue = 'stalled';
    const claimAfterMs = 1_200;
    // Long enough for the worker's first connections on a very busy machine.
    const commandTimeoutMs = 1_000;
    let cancelled = false;
    const wait = tool({
      name: 'wait',
      description: 'Waits until cancelled.',
      parameters: z.object({}),
      execute: (_args, { signal }) =>
        new Promise<string>(() => {
          signal?.addEventListener('abort', () => {
            cancelled = true;
          });
        }),
    });
    const model = new ScriptedChatModel([{ toolCalls: [{ name: 'wait', arguments: {} }] }]);
    const session = new RedisSession({ url: stalled.url, prefix: `${queue}:s:`, commandTimeoutMs });
    const host = new AgentHost({
      create: () =>
        new ReActAgent({ name: 'assistant', sysPrompt: '', model, toolkit: new Toolkit([wait]) }),
      session,
    });
    const worker = new AgentWorker({
      url: stalled.url,
      queue,
      host,
      claimAfterMs,
      commandTimeoutMs,
    });
    await worker.start();
    const agent = new RemoteAgent({ url: stalled.url, queue, threadId: 't', name: 'assistant' });
    try {
      void agent.reply('go').catch(() => {});
      await until(() => model.requests.length === 1 && worker.activeRuns === 1, 10_000, 'the call');
      process.kill(stalled.pid, 'SIGSTOP');
      const started = performance.now();
      await worker.stop();
      const took = performance.now() - started;
      // The bound, plus scheduling slack on a busy machine.
      expect(took).toBeLessThan(claimAfterMs + commandTimeoutMs + 1_200);
      expect(cancelled).toBe(true);
    } finally {
      process.kill(stalled.pid, 'SIGCONT');
      await worker.stop();
      await Promise.all([agent.close(), session.close()]);
      await stalled.stop();
    }
  }, 30_000);
});
