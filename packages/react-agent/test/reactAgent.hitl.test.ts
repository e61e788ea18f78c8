import {
  createMsg,
  InvalidArgumentError,
  type JsonObject,
  Toolkit,
  textOf,
  toolResults,
  userMsg,
} from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import { harness, run, transcript, weatherTool, wireMessages } from './harness.js';

const TWO_CALLS = {
  toolCalls: [
    { id: 'p1', name: 'get_weather', arguments: { city: 'Paris' } },
    { id: 'p2', name: 'get_weather', arguments: { city: 'Oslo' } },
  ],
};

/** An agent whose postReasoning hook stops before any tool runs (a human reviews the calls). */
async function stoppedAgent(script: Parameters<typeof harness>[0]) {
  const calls: JsonObject[] = [];
  const h = await harness([TWO_CALLS, ...script], { toolkit: new Toolkit([weatherTool(calls)]) });
  const remove = h.agent.addHook({
    onEvent: (event) => {
      if (event.type === 'postReasoning') event.stopAgent();
    },
  });
  const stopped = await run(h.agent, userMsg('Weather in Paris and Oslo?'));
  remove();
  return { ...h, calls, stopped };
}

describe('ReActAgent human in the loop', () => {
  it('stops after reasoning with the tool calls stored and none run', async () => {
    const { agent, calls, stopped } = await stoppedAgent([]);

    expect(stopped.metadata['generateReason']).toBe('tool_calls_stopped');
    expect(stopped.content.filter((b) => b.type === 'tool_use')).toHaveLength(2);
    expect(calls).toEqual([]);
    expect(transcript(agent.memory.messages())).toEqual([
      'user:Weather in Paris and Oslo?',
      'assistant:tool_use(get_weather)|tool_use(get_weather)',
    ]);
  });

  it('runs the pending calls on call() with no input', async () => {
    const { server, agent, calls } = await stoppedAgent(['Paris sunny, Oslo unknown.']);

    const reply = await run(agent);

    expect(calls).toEqual([{ city: 'Paris' }, { city: 'Oslo' }]);
    expect(textOf(reply)).toBe('Paris sunny, Oslo unknown.');
    expect(wireMessages(server, 1).map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
    ]);
  });

  it('runs only the missing calls when the caller supplies some results', async () => {
    const { server, agent, calls } = await stoppedAgent(['done']);
    const supplied = createMsg({
      name: 'user',
      role: 'tool',
      content: [
        {
          type: 'tool_result',
          id: 'p2',
          name: 'get_weather',
          output: 'Snow, -3°C (from the reviewer)',
        },
      ],
    });

    await run(agent, supplied);

    expect(calls).toEqual([{ city: 'Paris' }]);
    const results = agent.memory.messages().flatMap(toolResults);
    expect(results.map((r) => [r.id, r.output])).toEqual([
      ['p2', 'Snow, -3°C (from the reviewer)'],
      ['p1', 'Sunny, 21°C'],
    ]);
    expect(server.requests).toHaveLength(2);
  });

  it('rejects results for unknown call ids without changing memory', async () => {
    const { agent } = await stoppedAgent([]);
    const before = agent.memory.messages().length;
    const bogus = createMsg({
      name: 'user',
      role: 'tool',
      content: [{ type: 'tool_result', id: 'nope', name: 'get_weather', output: 'x' }],
    });

    await expect(run(agent, bogus)).rejects.toThrow(
      /unknown tool call id\(s\) nope; pending calls: p1, p2/,
    );
    expect(agent.memory.messages()).toHaveLength(before);
  });

  it('rejects two results for one pending call id without changing memory, and stays usable', async () => {
    const { agent, calls } = await stoppedAgent(['done']);
    const before = agent.memory.messages();
    const result = (output: string) =>
      createMsg({
        name: 'user',
        role: 'tool',
        content: [{ type: 'tool_result', id: 'p1', name: 'get_weather', output }],
      });

    const twice = run(agent, [result('first'), result('second')]);
    await expect(twice).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(twice).rejects.toThrow(/more than one result for tool call id\(s\) p1/);
    expect(agent.memory.messages()).toEqual(before);

    await run(agent, result('first'));
    expect(calls).toEqual([{ city: 'Oslo' }]);
    const results = agent.memory.messages().flatMap(toolResults);
    expect(results.map((r) => [r.id, r.output])).toEqual([
      ['p1', 'first'],
      ['p2', 'No data for Oslo'],
    ]);
  });

  it('records error results for pending calls when a new user message arrives', async () => {
    const { server, agent, calls } = await stoppedAgent(['Okay, forget the weather.']);

    await run(agent, userMsg('Actually, never mind.'));

    expect(calls).toEqual([]);
    const results = agent.memory.messages().flatMap(toolResults);
    expect(results.every((r) => r.isError && String(r.output).startsWith('[cancelled]'))).toBe(
      true,
    );
    expect(wireMessages(server, 1).map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
    ]);
  });

  it('stops after the acting batch when a postActing hook asks', async () => {
    const calls: JsonObject[] = [];
    const { server, agent } = await harness([TWO_CALLS, 'resumed'], {
      toolkit: new Toolkit([weatherTool(calls)]),
    });
    const remove = agent.addHook({
      onEvent: (event) => {
        if (event.type === 'postActing' && event.toolCall.id === 'p1') event.stopAgent();
      },
    });

    const stopped = await run(agent, userMsg('go'));
    remove();

    expect(stopped.metadata['generateReason']).toBe('acting_stopped');
    expect(stopped.role).toBe('tool');
    expect(toolResults(stopped)[0]?.id).toBe('p2');
    expect(calls).toHaveLength(2);
    expect(server.requests).toHaveLength(1);
    const resumed = await run(agent);
    expect(textOf(resumed)).toBe('resumed');
  });
});
