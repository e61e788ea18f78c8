import {
  type ChatChunk,
  type ChatModel,
  InvalidArgumentError,
  replyMetadata,
  Toolkit,
  textOf,
  tool,
  toolResults,
  userMsg,
} from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { JudgeGuard, pendingToolCalls, ReActAgent } from '@rxagent/react-agent';
import { EMPTY, lastValueFrom, NEVER, type Observable, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harness, run, transcript, weatherTool, wireMessages } from './harness.js';

/** A tool that always throws; counts its runs. */
function brokenTool(runs: { count: number }) {
  return tool({
    name: 'flaky',
    description: 'Always fails.',
    parameters: z.object({ n: z.number() }),
    dedupe: false,
    execute: () => {
      runs.count++;
      throw new Error('backend down');
    },
  });
}

const flakyCall = (n: number) => ({
  toolCalls: [{ id: `f${n}`, name: 'flaky', arguments: { n } }],
});

describe('ReActAgent maxToolFailures', () => {
  it('stops after that many failing rounds with a tool-less summary and generateReason tool_failures', async () => {
    const runs = { count: 0 };
    const { server, agent } = await harness(
      [flakyCall(1), flakyCall(2), 'The backend is down; I could not finish.'],
      { toolkit: new Toolkit([brokenTool(runs)]), maxToolFailures: 2 },
    );

    const reply = await run(agent, userMsg('Do it.'));

    expect(replyMetadata(reply).generateReason).toBe('tool_failures');
    expect(textOf(reply)).toBe('The backend is down; I could not finish.');
    expect(runs.count).toBe(2);
    expect(server.requests).toHaveLength(3);
    expect(server.requests[2]?.body['tools']).toBeUndefined();
    const instruction = wireMessages(server, 2).at(-1);
    expect(instruction).toMatchObject({ role: 'user', name: 'system' });
    expect(String(instruction?.content)).toMatch(/failed in 2 reasoning steps in a row/);
    expect(pendingToolCalls(agent.memory.messages()).calls).toEqual([]);
    expect(replyMetadata(reply).stats).toMatchObject({
      iterations: 2,
      modelCalls: 3,
      toolCalls: 2,
    });
  });

  it('counts only consecutive failing rounds: a success resets the streak', async () => {
    const runs = { count: 0 };
    const { agent } = await harness(
      [
        flakyCall(1),
        { toolCalls: [{ id: 'w1', name: 'get_weather', arguments: { city: 'Paris' } }] },
        flakyCall(2),
        'Done anyway.',
      ],
      { toolkit: new Toolkit([brokenTool(runs), weatherTool()]), maxToolFailures: 2 },
    );

    const reply = await run(agent, userMsg('Go.'));

    expect(replyMetadata(reply).generateReason).toBe('stop');
    expect(textOf(reply)).toBe('Done anyway.');
  });

  it('defaults to 3 and rejects a bound that is not a positive integer', async () => {
    const runs = { count: 0 };
    const { agent } = await harness([flakyCall(1), flakyCall(2), flakyCall(3), 'Summary.'], {
      toolkit: new Toolkit([brokenTool(runs)]),
    });
    expect(agent.maxToolFailures).toBe(3);
    const reply = await run(agent, userMsg('Go.'));
    expect(replyMetadata(reply).generateReason).toBe('tool_failures');
    expect(runs.count).toBe(3);

    const model = new ScriptedChatModel([]);
    expect(() => new ReActAgent({ name: 'x', sysPrompt: '', model, maxToolFailures: 0 })).toThrow(
      /maxToolFailures must be a positive integer or Infinity, got 0/,
    );
  });
});

describe('ReActAgent per-call maxIters', () => {
  it('overrides the agent bound for one call only', async () => {
    const { server, agent } = await harness(
      [
        { toolCalls: [{ id: 'a', name: 'get_weather', arguments: { city: 'Paris' } }] },
        { toolCalls: [{ id: 'b', name: 'get_weather', arguments: { city: 'Oslo' } }] },
        'Summary after one step.',
        { toolCalls: [{ id: 'c', name: 'get_weather', arguments: { city: 'Rome' } }] },
        'Rome: no data.',
      ],
      { toolkit: new Toolkit([weatherTool()]), maxIters: 10 },
    );

    const capped = await lastValueFrom(agent.call('Weather?', { maxIters: 2 }));
    expect(replyMetadata(capped).generateReason).toBe('max_iterations');
    expect(String(wireMessages(server, 2).at(-1)?.content)).toMatch(/all 2 reasoning steps/);
    const stored = agent.memory.messages().flatMap(toolResults);
    expect(String(stored.find((r) => r.id === 'b')?.output)).toMatch(/^\[not executed\]/);

    const free = await run(agent, userMsg('And Rome?'));
    expect(textOf(free)).toBe('Rome: no data.');
    expect(replyMetadata(free).generateReason).toBe('stop');
  });

  it('rejects a per-call maxIters that is not a positive integer, memory unchanged', async () => {
    const { agent } = await harness([]);
    await expect(lastValueFrom(agent.call('hi', { maxIters: 0 }))).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    expect(agent.memory.messages()).toEqual([]);
  });
});

describe('ReActAgent metadata.stats', () => {
  it('counts iterations, model calls and tool calls of a call', async () => {
    const { agent } = await harness(
      [
        {
          toolCalls: [
            { id: 'p', name: 'get_weather', arguments: { city: 'Paris' } },
            { id: 'o', name: 'get_weather', arguments: { city: 'Oslo' } },
          ],
        },
        'Sunny in Paris.',
      ],
      { toolkit: new Toolkit([weatherTool()]) },
    );

    const reply = await agent.reply('Weather in Paris and Oslo?');

    const stats = replyMetadata(reply).stats;
    expect(stats).toMatchObject({ iterations: 2, modelCalls: 2, toolCalls: 2 });
    expect(stats?.elapsedMs).toBeGreaterThanOrEqual(0);
    // Stats describe the call; they are not stored in memory.
    expect(agent.memory.messages().at(-1)?.metadata['stats']).toBeUndefined();
  });

  it('is on an interrupted reply and on a hook stop', async () => {
    const { agent } = await harness(
      [{ toolCalls: [{ id: 'p', name: 'get_weather', arguments: { city: 'Paris' } }] }, 'never'],
      { toolkit: new Toolkit([weatherTool()]) },
    );
    const remove = agent.addHook({
      onEvent: (event) => {
        if (event.type === 'postReasoning') event.stopAgent();
      },
    });
    const stopped = await run(agent, userMsg('Weather?'));
    remove();
    expect(replyMetadata(stopped).generateReason).toBe('tool_calls_stopped');
    expect(replyMetadata(stopped).stats).toMatchObject({ iterations: 1, modelCalls: 1 });

    agent.addHook({
      onEvent: (event) => {
        if (event.type === 'preActing') agent.interrupt();
      },
    });
    const interrupted = await run(agent);
    expect(replyMetadata(interrupted).generateReason).toBe('interrupted');
    expect(replyMetadata(interrupted).stats).toMatchObject({ iterations: 0, toolCalls: 1 });
  });
});

/** A model whose stream is, per request in turn, one of `streams` (then the last again). */
function streamsModel(streams: Observable<ChatChunk>[]): ChatModel & { requests: number } {
  return {
    modelName: 'streams',
    requests: 0,
    stream() {
      return streams[Math.min(this.requests++, streams.length - 1)]!;
    },
  };
}

describe('ReActAgent empty final answers', () => {
  it('takes a stream that completes without a single chunk as an empty answer', async () => {
    const model = streamsModel([EMPTY, of({ text: 'Now an answer.' }, { finishReason: 'stop' })]);
    const agent = new ReActAgent({ name: 'assistant', sysPrompt: 'Answer.', model });

    const reply = await run(agent, userMsg('Question?'));

    expect(textOf(reply)).toBe('Now an answer.');
    expect(model.requests).toBe(2);
    expect(agent.memory.messages()[1]?.metadata['feedback']).toBe('empty_answer');
  });

  it('stores no partial reply for a request cancelled before its first chunk', async () => {
    const agent = new ReActAgent({
      name: 'assistant',
      sysPrompt: 'Answer.',
      model: streamsModel([NEVER]),
    });
    const subscription = agent.call(userMsg('Question?')).subscribe({ error: () => undefined });
    await new Promise((resolve) => setTimeout(resolve, 10));
    subscription.unsubscribe();

    expect(transcript(agent.memory.messages())).toEqual(['user:Question?']);
    expect(agent.isRunning).toBe(false);
  });

  it('sends one reminder and returns the next answer', async () => {
    const { server, agent } = await harness(['', 'Here is the answer.']);

    const reply = await run(agent, userMsg('Question?'));

    expect(textOf(reply)).toBe('Here is the answer.');
    expect(replyMetadata(reply).emptyAnswer).toBeUndefined();
    expect(server.requests).toHaveLength(2);
    expect(wireMessages(server, 1).at(-1)).toMatchObject({ role: 'user', name: 'system' });
    expect(transcript(agent.memory.messages())).toEqual([
      'user:Question?',
      expect.stringMatching(/^user:Your last reply was empty/),
      'assistant:Here is the answer.',
    ]);
    expect(agent.memory.messages()[1]?.metadata['feedback']).toBe('empty_answer');
  });

  it('returns a second empty answer marked emptyAnswer, memory still sendable', async () => {
    const { server, agent } = await harness(['', '', 'later']);

    const reply = await run(agent, userMsg('Question?'));

    expect(textOf(reply)).toBe('');
    expect(replyMetadata(reply).emptyAnswer).toBe(true);
    expect(replyMetadata(reply).generateReason).toBe('stop');
    expect(server.requests).toHaveLength(2);
    await run(agent, userMsg('Again?'));
    expect(server.requests).toHaveLength(3);
  });
});

describe('JudgeGuard minChars and judge usage', () => {
  it('rejects a trivially short draft without a judge request', async () => {
    const judge = new ScriptedChatModel(['PASS']);
    const { agent } = await harness(['Ok.', 'Paris is the capital of France.'], {
      finishGuard: new JudgeGuard({ model: judge, minChars: 10 }),
    });

    const reply = await run(agent, userMsg('Capital of France?'));

    expect(textOf(reply)).toBe('Paris is the capital of France.');
    expect(judge.requests).toHaveLength(1);
    expect(transcript(agent.memory.messages())[1]).toMatch(
      /^user:\[Judge feedback\] The answer is too short/,
    );
  });

  it('reports the judge usage apart from the agent usage', async () => {
    const judge = new ScriptedChatModel([
      { text: 'PASS', usage: { inputTokens: 1000, outputTokens: 1 } },
    ]);
    const { agent } = await harness(
      [{ text: 'Paris.', usage: { inputTokens: 7, outputTokens: 2 } }],
      { finishGuard: new JudgeGuard({ model: judge }) },
    );

    const reply = await run(agent, userMsg('Capital of France?'));

    const meta = replyMetadata(reply);
    expect(meta.usage).toEqual({
      inputTokens: 7,
      outputTokens: 2,
      totalTokens: 9,
      cachedInputTokens: 0,
    });
    expect(meta.judgeUsage).toEqual({ inputTokens: 1000, outputTokens: 1, totalTokens: 1001 });
  });
});
