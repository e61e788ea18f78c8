import {
  assistantMsg,
  formatMessages,
  type JsonObject,
  Toolkit,
  textOf,
  tool,
  toolResults,
  userMsg,
} from '@rxagent/core';
import { ReActAgent } from '@rxagent/react-agent';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harness, run, transcript, weatherTool, wireMessages } from './harness.js';

describe('ReActAgent hook mutation points', () => {
  it('applies preReasoning changes to that request only', async () => {
    const { server, agent } = await harness(['first', 'second'], {
      toolkit: new Toolkit([weatherTool()]),
    });
    let once = true;
    agent.addHook({
      onEvent: (event) => {
        if (event.type !== 'preReasoning' || !once) return;
        once = false;
        event.messages = [...event.messages, userMsg('Answer in French.', { name: 'system' })];
        event.systemPrompt = 'Per-request prompt.';
        event.toolChoice = 'none';
        event.options = { ...event.options, temperature: 0.1 };
      },
    });

    await run(agent, userMsg('hi'));
    await run(agent, userMsg('again'));

    const first = server.requests[0]!.body;
    expect(first['messages']).toEqual([
      { role: 'system', content: 'Per-request prompt.' },
      { role: 'user', content: 'hi' },
      { role: 'user', name: 'system', content: 'Answer in French.' },
    ]);
    expect(first['tool_choice']).toBe('none');
    expect(first['temperature']).toBe(0.1);
    const second = server.requests[1]!.body;
    expect((second['messages'] as JsonObject[])[0]).toEqual({
      role: 'system',
      content: 'You are a test assistant.',
    });
    expect(second['tool_choice']).toBeUndefined();
    expect(second['temperature']).toBeUndefined();
    expect(transcript(agent.memory.messages())).toEqual([
      'user:hi',
      'assistant:first',
      'user:again',
      'assistant:second',
    ]);
  });

  it('stores the reply as postReasoning hooks left it', async () => {
    const { agent } = await harness(['raw answer']);
    agent.addHook({
      onEvent: (event) => {
        if (event.type !== 'postReasoning') return undefined;
        return { ...event, reply: assistantMsg('edited answer', { name: 'assistant' }) };
      },
    });

    const reply = await run(agent, userMsg('hi'));

    expect(textOf(reply)).toBe('edited answer');
    expect(textOf(agent.memory.messages()[1]!)).toBe('edited answer');
  });

  it('lets preActing change the input (not the id) and postActing change the result', async () => {
    const calls: JsonObject[] = [];
    const { server, agent } = await harness(
      [
        { toolCalls: [{ id: 'keep_me', name: 'get_weather', arguments: { city: 'Lyon' } }] },
        'done',
      ],
      { toolkit: new Toolkit([weatherTool(calls)]) },
    );
    agent.addHook({
      onEvent: (event) => {
        if (event.type === 'preActing')
          event.toolCall = { ...event.toolCall, id: 'hijacked', input: { city: 'Paris' } };
        if (event.type === 'postActing')
          event.result = { ...event.result, output: `${String(event.result.output)} (checked)` };
      },
    });

    await run(agent, userMsg('weather'));

    expect(calls).toEqual([{ city: 'Paris' }]);
    const results = agent.memory.messages().flatMap(toolResults);
    expect(results).toEqual([
      { type: 'tool_result', id: 'keep_me', name: 'get_weather', output: 'Sunny, 21°C (checked)' },
    ]);
    expect(wireMessages(server, 1)[3]).toMatchObject({ tool_call_id: 'keep_me' });
  });

  it('fails the call when a hook throws, leaving memory a valid conversation', async () => {
    const { server, agent } = await harness(
      [
        { toolCalls: [{ id: 'a', name: 'get_weather', arguments: { city: 'Paris' } }] },
        'recovered',
      ],
      { toolkit: new Toolkit([weatherTool()]) },
    );
    const remove = agent.addHook({
      onEvent: (event) => {
        if (event.type === 'preActing') throw new Error('hook broke');
      },
    });

    await expect(run(agent, userMsg('go'))).rejects.toThrow('hook broke');
    remove();
    await run(agent, userMsg('try again'));

    expect(server.requests).toHaveLength(2);
    expect(wireMessages(server, 1).map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'user',
    ]);
  });
});

describe('ReActAgent maxIters', () => {
  it('gives the last tool calls error results and ends with a tool-less summary', async () => {
    const loop = { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] };
    const events: string[] = [];
    const { server, agent } = await harness(
      [
        loop,
        { toolCalls: [{ name: 'get_weather', arguments: { city: 'Rome' } }] },
        'Summary: Paris is sunny.',
      ],
      { maxIters: 2, toolkit: new Toolkit([weatherTool()]) },
    );
    agent.addHook({
      onEvent: (event) => {
        if (event.type === 'preSummary' || event.type === 'postSummary') events.push(event.type);
      },
    });

    const reply = await run(agent, userMsg('forever'));

    expect(reply.metadata['generateReason']).toBe('max_iterations');
    expect(textOf(reply)).toBe('Summary: Paris is sunny.');
    expect(events).toEqual(['preSummary', 'postSummary']);
    expect(server.requests).toHaveLength(3);
    const summary = server.requests[2]!.body;
    expect(summary['tools']).toBeUndefined();
    expect(summary['tool_choice']).toBeUndefined();
    const results = agent.memory.messages().flatMap(toolResults);
    expect(results[1]).toMatchObject({
      isError: true,
      output: expect.stringMatching(/not executed.*limit of 2/),
    });
    expect(agent.memory.messages().some((m) => textOf(m).includes('reasoning steps allowed'))).toBe(
      false,
    );
  });
});

describe('ReActAgent duplicate tool calls', () => {
  const twice = (args: JsonObject) => [
    { toolCalls: [{ name: 'get_weather', arguments: args }] },
    { toolCalls: [{ name: 'get_weather', arguments: args }] },
    'done',
  ];

  it('answers an identical repeated call without running it again', async () => {
    const calls: JsonObject[] = [];
    const { agent } = await harness(twice({ city: 'Paris' }), {
      toolkit: new Toolkit([weatherTool(calls)]),
    });

    await run(agent, userMsg('go'));

    expect(calls).toHaveLength(1);
    const second = agent.memory.messages().flatMap(toolResults)[1];
    expect(String(second?.output)).toMatch(/\[duplicate\].*Sunny, 21°C/s);
  });

  it('marks the stored Msg of a duplicate answer with metadata.resultKind duplicate', async () => {
    const { agent } = await harness(twice({ city: 'Paris' }), {
      toolkit: new Toolkit([weatherTool()]),
    });
    const kinds: unknown[] = [];
    agent.addHook({
      events: ['postActing'],
      onEvent: (event) => {
        if (event.type === 'postActing') kinds.push(event.resultKind);
      },
    });

    await run(agent, userMsg('go'));

    const stored = agent.memory.messages().filter((msg) => msg.role === 'tool');
    expect(stored.map((msg) => msg.metadata['resultKind'])).toEqual([undefined, 'duplicate']);
    expect(kinds).toEqual([undefined, 'duplicate']);
  });

  it('runs every call again when the agent turns dedupe off', async () => {
    const calls: JsonObject[] = [];
    const { agent } = await harness(twice({ city: 'Paris' }), {
      toolkit: new Toolkit([weatherTool(calls)]),
      dedupeToolCalls: false,
    });

    await run(agent, userMsg('go'));

    expect(calls).toHaveLength(2);
  });

  it('runs every call again for a tool with dedupe: false', async () => {
    let n = 0;
    const clock = tool({
      name: 'now',
      description: 'A counter.',
      parameters: z.object({}),
      dedupe: false,
      execute: () => String(++n),
    });
    const { agent } = await harness(
      [
        { toolCalls: [{ name: 'now', arguments: {} }] },
        { toolCalls: [{ name: 'now', arguments: {} }] },
        'done',
      ],
      { toolkit: new Toolkit([clock]) },
    );

    await run(agent, userMsg('go'));

    expect(
      agent.memory
        .messages()
        .flatMap(toolResults)
        .map((r) => r.output),
    ).toEqual(['1', '2']);
  });
});

describe('ReActAgent state', () => {
  it('round-trips its state byte-identically and the restored agent continues validly', async () => {
    const { server, agent } = await harness(
      [
        { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
        'Sunny.',
        'Still sunny.',
      ],
      { toolkit: new Toolkit([weatherTool()]) },
    );
    await run(agent, userMsg('weather?'));
    const saved = JSON.stringify(agent.stateDict());

    const fresh = new ReActAgent({
      name: 'assistant',
      sysPrompt: 'You are a test assistant.',
      model: agent.model,
      toolkit: new Toolkit([weatherTool()]),
    });
    fresh.loadStateDict(JSON.parse(saved));

    expect(JSON.stringify(fresh.stateDict())).toBe(saved);
    expect(fresh.stateDict()['version']).toBe(1);
    await run(fresh, userMsg('and now?'));
    expect(wireMessages(server, 2).map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
  });
});

describe('ReActAgent formatter option', () => {
  it('formats every request with the given formatter', async () => {
    const { server, agent } = await harness(['hi there'], {
      formatter: (msgs, options) =>
        formatMessages(msgs, options).map((m) =>
          m.role === 'user'
            ? { ...m, content: `[from ${m.name ?? 'user'}] ${String(m.content)}` }
            : m,
        ),
    });

    await run(agent, userMsg('hello'));

    expect(wireMessages(server, 0)[1]).toEqual({ role: 'user', content: '[from user] hello' });
  });
});

describe('ReActAgent postReasoning response info', () => {
  it("reports each request's own usage and finish reason on its postReasoning event", async () => {
    const { agent } = await harness(
      [
        {
          toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
          usage: { inputTokens: 10, outputTokens: 3 },
        },
        { text: 'Sunny.', usage: { inputTokens: 20, outputTokens: 2 } },
      ],
      { toolkit: new Toolkit([weatherTool()]) },
    );
    const seen: Array<{ usage: unknown; finishReason: unknown }> = [];
    agent.addHook({
      onEvent: (event) => {
        if (event.type === 'postReasoning') {
          seen.push({ usage: event.usage, finishReason: event.finishReason });
        }
      },
    });

    await run(agent, userMsg('Weather in Paris?'));

    expect(seen).toEqual([
      {
        usage: { inputTokens: 10, outputTokens: 3, totalTokens: 13, cachedInputTokens: 0 },
        finishReason: 'tool_calls',
      },
      {
        usage: { inputTokens: 20, outputTokens: 2, totalTokens: 22, cachedInputTokens: 0 },
        finishReason: 'stop',
      },
    ]);
  });
});
