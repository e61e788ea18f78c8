import { setTimeout as sleep } from 'node:timers/promises';
import {
  AgentBase,
  type AgentEvent,
  AgentHost,
  msgHub,
  sequentialPipeline,
  Toolkit,
  textOf,
  tool,
  userMsg,
} from '@rxagent/core';
import { EchoAgent, ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { createClient } from 'redis';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { describeRedis } from '../../test/describeRedis.js';
import { RedisSession } from '../session/redisSession.js';
import { type RedisServer, startRedisServer } from '../testing/redisServer.js';
import { AgentWorker } from './agentWorker.js';
import { RemoteAgent } from './remoteAgent.js';
import { RemoteRunTimeoutError } from './remoteRunError.js';

/** Resolves once `condition()` holds, checked every 10 ms. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(10);
}

describeRedis('AgentWorker and RemoteAgent', () => {
  let server: RedisServer;
  const closing: Array<() => Promise<void>> = [];
  let queueCount = 0;

  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** A worker serving a fresh queue with ReActAgents on a shared echoing model. */
  async function worker(queue: string, model: ScriptedChatModel, toolkit?: Toolkit) {
    const session = new RedisSession({ url: server.url, prefix: `${queue}:s:` });
    const host = new AgentHost({
      create: () =>
        new ReActAgent({
          name: 'assistant',
          sysPrompt: 'Be brief.',
          model,
          ...(toolkit && { toolkit }),
        }),
      session,
    });
    const w = new AgentWorker({ url: server.url, queue, host, claimAfterMs: 2_000 });
    await w.start();
    closing.push(async () => {
      await w.stop();
      await session.close();
    });
    return w;
  }

  function remote(queue: string, threadId: string, timeoutMs = 20_000) {
    const agent = new RemoteAgent({
      url: server.url,
      queue,
      threadId,
      name: 'assistant',
      timeoutMs,
    });
    closing.push(() => agent.close());
    return agent;
  }

  const echo = () => {
    const model = new ScriptedChatModel([], { strict: true });
    const answer = (): void =>
      model.enqueue((request) => {
        const last = request.messages.at(-1);
        return `re: ${typeof last?.content === 'string' ? last.content : '?'}`;
      });
    return { model, answer };
  };

  it('runs a call on a worker and returns its reply, keeping the thread across calls', async () => {
    const queue = `q${queueCount++}`;
    const { model, answer } = echo();
    await worker(queue, model);
    const agent = remote(queue, 'alice');

    answer();
    expect(textOf(await agent.reply('hello'))).toBe('re: hello');
    answer();
    expect(textOf(await agent.reply('again'))).toBe('re: again');
    expect(model.requests[1]?.messages.filter((m) => m.role === 'user')).toHaveLength(2);
  });

  it('follows consecutive calls on one reader connection, and close() leaves none open', async () => {
    const queue = `q${queueCount++}`;
    const { model, answer } = echo();
    await worker(queue, model);
    const admin = createClient({ url: server.url });
    await admin.connect();
    closing.push(async () => void (await admin.close()));
    const connectionsAccepted = async () =>
      Number(/total_connections_received:(\d+)/.exec(await admin.info('stats'))?.[1]);
    const clients = async () =>
      Number(/connected_clients:(\d+)/.exec(await admin.info('clients'))?.[1]);
    const settled = async (expected: number) => {
      for (let i = 0; i < 200 && (await clients()) !== expected; i++) await sleep(25);
      return clients();
    };
    const agent = new RemoteAgent({ url: server.url, queue, threadId: 't', name: 'assistant' });

    answer();
    await agent.reply('one');
    const during = await clients();
    const accepted = await connectionsAccepted();
    for (const text of ['two', 'three', 'four']) {
      answer();
      expect(textOf(await agent.reply(text))).toBe(`re: ${text}`);
    }
    // No connection was opened for them.
    expect(await connectionsAccepted()).toBe(accepted);
    expect(await clients()).toBe(during);

    // Closing ends its two connections: the one it sends commands on, and its one reader.
    await agent.close();
    expect(await settled(during - 2)).toBe(during - 2);
  });

  it('drops a reader stopped mid-read, and the next call follows on a fresh one', async () => {
    const queue = `q${queueCount++}`;
    const model = new ScriptedChatModel([{ text: 'slow', delayMs: 60_000 }, 'quick']);
    await worker(queue, model);
    const agent = remote(queue, 't');
    const slow = agent.call(userMsg('long job')).subscribe({ error: () => {} });
    await until(() => model.requests.length > 0);
    slow.unsubscribe(); // interrupts the remote run; its follower is mid-XREAD

    const next = await agent.reply('again');
    expect(textOf(next)).toBe('quick');
  });

  it("passes the call's budget to the worker's agent", async () => {
    const queue = `q${queueCount++}`;
    const model = new ScriptedChatModel(['never asked']);
    await worker(queue, model);

    const reply = await remote(queue, 'b').reply('hello', { budget: { maxTokens: 0 } });

    expect(reply.metadata['generateReason']).toBe('budget');
    expect(model.requests).toHaveLength(0);
  });

  it("passes the call's callContext to the worker's agent: its hooks see who is asking", async () => {
    const queue = `q${queueCount++}`;
    const { model, answer } = echo();
    await worker(queue, model);
    const seen: unknown[] = [];
    const remover = AgentBase.addSystemHook({
      onEvent: (event) => {
        if (event.type === 'preCall' && event.agent !== agent) seen.push(event.callContext);
      },
    });
    closing.push(async () => remover());
    const agent = remote(queue, 'carol');
    answer();
    await agent.reply('hi', { callContext: { user: 'carol', roles: ['ops'] } });
    expect(seen).toEqual([{ user: 'carol', roles: ['ops'] }]);
  });

  it('streams the remote events with increasing seq, chunk events included, ending with the reply', async () => {
    const queue = `q${queueCount++}`;
    const model = new ScriptedChatModel(['one two three four']);
    await worker(queue, model);

    const events = await lastValueFrom(remote(queue, 't').stream('go').pipe(toArray()));
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('preCall');
    expect(types).toContain('reasoningChunk');
    expect(types.at(-1)).toBe('reply');
    const seqs = events.flatMap((e) =>
      'seq' in e ? [(e as AgentEvent & { seq: number }).seq] : [],
    );
    expect(seqs.length).toBeGreaterThan(2);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it('interrupts a remote call within a second', async () => {
    const queue = `q${queueCount++}`;
    const model = new ScriptedChatModel([{ text: 'slow', delayMs: 60_000 }]);
    await worker(queue, model);
    const agent = remote(queue, 't');
    const reply = agent.reply('long job');
    // Wait until the worker started the model request.
    await until(() => model.requests.length > 0);
    const started = performance.now();
    agent.interrupt(userMsg('stop now'));
    const final = await reply;
    expect(final.metadata['generateReason']).toBe('interrupted');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('observe() adds to the thread, seen by its next call', async () => {
    const queue = `q${queueCount++}`;
    const { model, answer } = echo();
    await worker(queue, model);
    const agent = remote(queue, 't');

    await lastValueFrom(agent.observe(userMsg('FYI: metric units', { name: 'boss' })), {
      defaultValue: undefined,
    });
    answer();
    await agent.reply('How warm?');
    const users = model.requests[0]?.messages.filter((m) => m.role === 'user') ?? [];
    expect(users.map((m) => m.content)).toEqual(['FYI: metric units', 'How warm?']);
  });

  it('runs one call per thread at a time across two workers, with many calls in flight on each thread', async () => {
    const queue = `q${queueCount++}`;
    const { model, answer } = echo();
    await worker(queue, model);
    await worker(queue, model);
    const threads = ['a', 'b', 'c', 'd'];
    const calls: Array<Promise<string>> = [];
    for (let i = 0; i < 5; i++) {
      for (const thread of threads) {
        answer();
        // A RemoteAgent per call, so the calls of one thread are in flight together; they run
        // in the order their requests reached Redis, which need not be the order made here.
        calls.push(remote(queue, thread).reply(`${thread}${i}`).then(textOf));
      }
    }
    const replies = await Promise.all(calls);
    expect(replies).toEqual(
      [0, 1, 2, 3, 4].flatMap((i) => threads.map((thread) => `re: ${thread}${i}`)),
    );
    for (const thread of threads) {
      const session = new RedisSession({ url: server.url, prefix: `${queue}:s:` });
      const saved = (await session.load(thread)) as {
        memory?: { messages?: Array<{ role: string; content: Array<{ text?: string }> }> };
      };
      await session.close();
      // Each call alone on its thread: every question is followed by its own answer, once.
      const turns = (saved.memory?.messages ?? []).map(
        (msg) => `${msg.role}:${msg.content.map((block) => block.text ?? '').join('')}`,
      );
      expect(turns).toHaveLength(10);
      for (let at = 0; at < turns.length; at += 2) {
        const question = turns[at]?.replace(/^user:/, '') ?? '';
        expect(turns[at]).toMatch(new RegExp(`^user:${thread}[0-4]$`));
        expect(turns[at + 1]).toBe(`assistant:re: ${question}`);
      }
      expect(new Set(turns).size).toBe(10);
    }
  });

  it('stop() finishes the running call and takes no new one', async () => {
    const queue = `q${queueCount++}`;
    let release = (): void => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const toolkit = new Toolkit([
      tool({
        name: 'wait',
        description: 'Waits.',
        parameters: z.object({}),
        execute: async () => {
          await gate;
          return 'waited';
        },
      }),
    ]);
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'wait', arguments: {} }] },
      'finished',
    ]);
    const w = await worker(queue, model, toolkit);
    const reply = remote(queue, 't').reply('go');
    await until(() => w.activeRuns > 0 && model.requests.length > 0);
    const stopped = w.stop();
    release();
    await stopped;
    expect(textOf(await reply)).toBe('finished');
  });

  it('fails a call with RemoteRunTimeoutError when no worker serves the queue', async () => {
    const queue = `q${queueCount++}`;
    await expect(remote(queue, 't', 500).reply('anyone?')).rejects.toBeInstanceOf(
      RemoteRunTimeoutError,
    );
  });

  it('takes part in pipelines, hubs and as a tool like a local agent', async () => {
    const queue = `q${queueCount++}`;
    const { model, answer } = echo();
    await worker(queue, model);

    answer();
    const piped = await lastValueFrom(
      sequentialPipeline(
        [remote(queue, 'pipe'), new EchoAgent({ name: 'echo', prefix: 'echo: ' })],
        userMsg('hi'),
      ),
    );
    expect(textOf(piped)).toBe('echo: re: hi');

    const listener = new EchoAgent({ name: 'listener' });
    answer();
    await lastValueFrom(
      msgHub(
        { participants: [remote(queue, 'hub'), listener] },
        (hub) => hub.participants[0]?.call(userMsg('to the room')) ?? [],
      ),
    );
    expect(listener.observed.map(textOf)).toEqual(['re: to the room']);

    answer();
    const parent = new ReActAgent({
      name: 'parent',
      sysPrompt: 'Delegate.',
      model: new ScriptedChatModel([
        { toolCalls: [{ name: 'assistant', arguments: { request: 'sub-question' } }] },
        (request) => `parent got: ${String(request.messages.at(-1)?.content)}`,
      ]),
      toolkit: new Toolkit([remote(queue, 'tool').asTool()]),
    });
    expect(textOf(await parent.reply('go'))).toBe('parent got: re: sub-question');
  });
});
