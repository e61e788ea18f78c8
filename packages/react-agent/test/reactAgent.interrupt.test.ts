import {
  type JsonObject,
  type Msg,
  Toolkit,
  textOf,
  tool,
  toolResults,
  userMsg,
} from '@rxagent/core';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harness, run, transcript, weatherTool, wireMessages } from './harness.js';

/** A tool that takes 5 s unless its signal aborts; `started` resolves when it begins. */
function slowTool() {
  let markStarted: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  const seen: { aborted?: boolean } = {};
  const slow = tool({
    name: 'slow_report',
    description: 'Builds a long report.',
    parameters: z.object({}),
    execute: (_args, { signal }) =>
      new Promise<string>((resolve) => {
        markStarted();
        const timer = setTimeout(() => resolve('report'), 5_000);
        signal.addEventListener('abort', () => {
          seen.aborted = true;
          clearTimeout(timer);
          resolve('too late');
        });
      }),
  });
  return { slow, started, seen };
}

const LONG_TEXT = Array.from({ length: 10 }, (_, i) => `word${i}`).join(' ');

describe.each([{ stream: true }, { stream: false }])(
  'ReActAgent interrupts (stream: $stream)',
  ({ stream }) => {
    it('interrupts a slow tool within milliseconds, recording [interrupted] before the interrupt reply', async () => {
      const { slow, started, seen } = slowTool();
      const { server, agent } = await harness(
        [{ toolCalls: [{ id: 'r1', name: 'slow_report', arguments: {} }] }, 'fresh start'],
        { stream, toolkit: new Toolkit([slow]) },
      );

      const reply = lastValueFrom(agent.call(userMsg('report please')));
      await started;
      const t0 = performance.now();
      agent.interrupt();
      const msg = await reply;

      expect(performance.now() - t0).toBeLessThan(1_000);
      expect(seen.aborted).toBe(true);
      expect(msg.metadata).toMatchObject({ interrupted: true, generateReason: 'interrupted' });
      expect(transcript(agent.memory.messages()).slice(-2)).toEqual([
        'tool:tool_result(slow_report)',
        `assistant:${textOf(msg)}`,
      ]);
      expect(String(agent.memory.messages().flatMap(toolResults)[0]?.output)).toMatch(
        /^\[interrupted\]/,
      );
      await run(agent, userMsg('never mind'));
      expect(wireMessages(server, 1).map((m) => m.role)).toEqual([
        'system',
        'user',
        'assistant',
        'tool',
        'assistant',
        'user',
      ]);
    });

    it('unsubscribing mid-tool aborts it, records the result, and frees the agent', async () => {
      const { slow, started, seen } = slowTool();
      const { server, agent } = await harness(
        [{ toolCalls: [{ name: 'slow_report', arguments: {} }] }, 'ok'],
        { stream, toolkit: new Toolkit([slow]) },
      );

      const subscription = agent.call(userMsg('report')).subscribe();
      await started;
      subscription.unsubscribe();

      expect(seen.aborted).toBe(true);
      expect(agent.isRunning).toBe(false);
      expect(transcript(agent.memory.messages())).toEqual([
        'user:report',
        'assistant:tool_use(slow_report)',
        'tool:tool_result(slow_report)',
      ]);
      await run(agent, userMsg('again'));
      expect(server.requests).toHaveLength(2);
    });
  },
);

describe('ReActAgent interrupting the model', () => {
  it("stores the interrupt message as the user's words before the interrupt reply", async () => {
    const { slow, started } = slowTool();
    const { server, agent } = await harness(
      [{ toolCalls: [{ id: 'r1', name: 'slow_report', arguments: {} }] }, 'ok, short version'],
      { toolkit: new Toolkit([slow]) },
    );

    const reply = lastValueFrom(agent.call(userMsg('report please')));
    await started;
    const words = userMsg('stop, just give me the summary');
    agent.interrupt(words);
    const msg = await reply;

    expect(transcript(agent.memory.messages())).toEqual([
      'user:report please',
      'assistant:tool_use(slow_report)',
      'tool:tool_result(slow_report)',
      'user:stop, just give me the summary',
      `assistant:${textOf(msg)}`,
    ]);
    expect(agent.memory.messages()[3]?.id).toBe(words.id);
    await run(agent);
    const sent = wireMessages(server, 1);
    expect(sent.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'user',
      'assistant',
    ]);
    expect(sent[4]?.content).toBe('stop, just give me the summary');
  });

  it('aborts a slow model stream within milliseconds and keeps the partial text', async () => {
    const { server, agent } = await harness([
      { text: LONG_TEXT, chunkDelayMs: 500 },
      'next answer',
    ]);
    let firstChunk: () => void = () => {};
    const chunkArrived = new Promise<void>((resolve) => {
      firstChunk = resolve;
    });
    agent.addHook({
      onEvent: (event) => {
        if (event.type === 'reasoningChunk') firstChunk();
      },
    });

    const reply = lastValueFrom(agent.call(userMsg('tell me a long story')));
    await chunkArrived;
    const t0 = performance.now();
    agent.interrupt(userMsg('stop, please'));
    const msg = await reply;

    expect(performance.now() - t0).toBeLessThan(1_000);
    expect(msg.metadata['interrupted']).toBe(true);
    await server.requests[0]!.done;
    expect(server.requests[0]!.aborted).toBe(true);
    const partial = agent.memory.messages()[1] as Msg;
    expect(partial.metadata['partial']).toBe(true);
    expect(textOf(partial)).toMatch(/^word0/);
    expect(textOf(partial).length).toBeLessThan(LONG_TEXT.length);
    await run(agent, userMsg('short one'));
    expect(server.requests).toHaveLength(2);
  });

  it('aborts the HTTP request when the caller unsubscribes mid-stream', async () => {
    const { server, agent } = await harness([{ text: LONG_TEXT, chunkDelayMs: 500 }, 'ok']);
    let firstChunk: () => void = () => {};
    const chunkArrived = new Promise<void>((resolve) => {
      firstChunk = resolve;
    });
    agent.addHook({
      onEvent: (event) => {
        if (event.type === 'reasoningChunk') firstChunk();
      },
    });

    const subscription = agent.call(userMsg('story')).subscribe();
    await chunkArrived;
    subscription.unsubscribe();
    await server.requests[0]!.done;

    expect(server.requests[0]!.aborted).toBe(true);
    expect(agent.memory.messages()[1]?.metadata['partial']).toBe(true);
    await run(agent, userMsg('again'));
  });

  it('ignores an interrupt made while idle', async () => {
    const { agent } = await harness(['answer']);
    agent.interrupt();

    const reply = await run(agent, userMsg('hi'));

    expect(reply.metadata['interrupted']).toBeUndefined();
    expect(textOf(reply)).toBe('answer');
  });

  it('retries a 429 before the first chunk and answers normally', async () => {
    const { server, agent } = await harness(
      [
        { error: { status: 429, headers: { 'retry-after': '0' } } },
        { error: { status: 500 } },
        'finally',
      ],
      { toolkit: new Toolkit([weatherTool()]) },
    );

    const reply = await run(agent, userMsg('hi'));

    expect(textOf(reply)).toBe('finally');
    expect(server.requests.map((r) => r.status)).toEqual([429, 500, 200]);
  });

  it('does not retry a 400', async () => {
    const { server, agent } = await harness([
      { error: { status: 400, message: 'bad request' } },
      'unused',
    ]);

    await expect(run(agent, userMsg('hi'))).rejects.toMatchObject({
      code: 'MODEL_FAILED',
      status: 400,
    });
    expect(server.requests).toHaveLength(1);
  });
});

describe('ReActAgent interrupt checkpoints', () => {
  it('seals tool calls stored before an interrupt that lands between reasoning and acting', async () => {
    const calls: JsonObject[] = [];
    const { server, agent } = await harness(
      [{ toolCalls: [{ id: 'x1', name: 'get_weather', arguments: { city: 'Paris' } }] }, 'ok'],
      { toolkit: new Toolkit([weatherTool(calls)]) },
    );
    const remove = agent.addHook({
      onEvent: (event) => {
        if (event.type === 'postReasoning') agent.interrupt();
      },
    });

    const reply = await run(agent, userMsg('weather'));
    remove();

    expect(reply.metadata['generateReason']).toBe('interrupted');
    expect(calls).toEqual([]);
    expect(transcript(agent.memory.messages())).toEqual([
      'user:weather',
      'assistant:tool_use(get_weather)',
      'tool:tool_result(get_weather)',
      `assistant:${textOf(reply)}`,
    ]);
    await run(agent, userMsg('again'));
    expect(server.requests).toHaveLength(2);
  });
});

describe('ReActAgent.stream()', () => {
  it('emits the loop events as frozen snapshots and ends with the reply', async () => {
    const { agent } = await harness(
      [{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, 'Sunny.'],
      { toolkit: new Toolkit([weatherTool()]) },
    );

    const events = await lastValueFrom(agent.stream(userMsg('weather')).pipe(toArray()));

    const types = events
      .map((e) => e.type)
      .filter((t, i, all) => t !== 'reasoningChunk' || all[i - 1] !== t);
    expect(types).toEqual([
      'preCall',
      'preReasoning',
      'reasoningChunk',
      'postReasoning',
      'preActing',
      'postActing',
      'preReasoning',
      'reasoningChunk',
      'postReasoning',
      'postCall',
      'reply',
    ]);
    expect(events.every((e) => Object.isFrozen(e))).toBe(true);
    const last = events[events.length - 1];
    expect(last?.type === 'reply' && textOf(last.msg)).toBe('Sunny.');
  });
});
