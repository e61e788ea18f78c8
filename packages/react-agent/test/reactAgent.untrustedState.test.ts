import { type ChatMessage, Toolkit, toolResults, toolUses, userMsg } from '@rxagent/core';
import { ReActAgent } from '@rxagent/react-agent';
import { describe, expect, it } from 'vitest';
import { harness, run, textOf, weatherTool, wireMessages } from './harness.js';

const deep = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

describe('ReActAgent with an untrusted model server', () => {
  it('answers deeply nested tool arguments with an error result and stays usable and savable', async () => {
    const { server, agent } = await harness(
      [
        { toolCalls: [{ id: 'd1', name: 'get_weather', arguments: deep(6_000) }] },
        'Sorry.',
        'Still here.',
      ],
      { toolkit: new Toolkit([weatherTool()]) },
    );

    expect(textOf(await run(agent, userMsg('go')))).toBe('Sorry.');
    const [result] = agent.memory.messages().flatMap(toolResults);
    expect(result?.isError).toBe(true);
    expect(String(result?.output)).toMatch(/nested deeper than 64/);
    expect(toolUses(agent.memory.messages()[1]!)[0]?.input).toEqual({});

    expect(textOf(await run(agent, userMsg('again')))).toBe('Still here.');
    expect(server.requests).toHaveLength(3);
    const state = agent.stateDict();
    const copy = new ReActAgent({ name: 'assistant', sysPrompt: '', model: agent.model });
    copy.loadStateDict(state);
    expect(JSON.stringify(copy.stateDict())).toBe(JSON.stringify(state));
  });

  it('answers oversized tool arguments with an error result naming the limit', async () => {
    const big = JSON.stringify({ city: 'x'.repeat(300 * 1024) });
    const { agent } = await harness(
      [{ toolCalls: [{ id: 'b1', name: 'get_weather', arguments: big }] }, 'Sorry.'],
      { toolkit: new Toolkit([weatherTool()]) },
    );

    await run(agent, userMsg('go'));

    const [result] = agent.memory.messages().flatMap(toolResults);
    expect(result?.isError).toBe(true);
    expect(String(result?.output)).toMatch(/262144 characters/);
  });

  it('renames a duplicate tool-call id so each call keeps its own result', async () => {
    const calls: { city: string }[] = [];
    const { server, agent } = await harness(
      [
        {
          toolCalls: [
            { id: 'same', name: 'get_weather', arguments: { city: 'Paris' } },
            { id: 'same', name: 'get_weather', arguments: { city: 'Rome' } },
          ],
        },
        'Done.',
        'Next.',
      ],
      { toolkit: new Toolkit([weatherTool(calls)]) },
    );

    expect(textOf(await run(agent, userMsg('go')))).toBe('Done.');
    expect(textOf(await run(agent, userMsg('more')))).toBe('Next.');

    const ids = toolUses(agent.memory.messages()[1]!).map((call) => call.id);
    expect(new Set(ids).size).toBe(2);
    expect(ids[0]).toBe('same');
    const results = agent.memory.messages().flatMap(toolResults);
    expect(results.map((r) => r.id)).toEqual(ids);
    expect(results.map((r) => r.output)).toEqual(['Sunny, 21°C', 'No data for Rome']);
    const tools = wireMessages(server, 2).filter(
      (m): m is Extract<ChatMessage, { role: 'tool' }> => m.role === 'tool',
    );
    expect(tools.map((m) => m.tool_call_id)).toEqual(ids);
  });

  it('renames a tool-call id an earlier turn or a restored session already used, so the next request is valid', async () => {
    // A server that numbers its calls from call_0 again every turn.
    const turn = (city: string) => ({
      toolCalls: [{ id: 'call_0', name: 'get_weather', arguments: { city } }],
    });
    const { server, agent } = await harness(
      [turn('Paris'), 'Paris done.', turn('Rome'), 'Rome done.', turn('Paris'), 'Again.'],
      { toolkit: new Toolkit([weatherTool()]) },
    );

    await run(agent, userMsg('Paris?'));
    await run(agent, userMsg('Rome?'));
    // A fresh agent restored from the saved state, as `--resume` in a new process does.
    const restored = new ReActAgent({
      name: 'assistant',
      sysPrompt: 'You are a test assistant.',
      model: agent.model,
      toolkit: new Toolkit([weatherTool()]),
    });
    restored.loadStateDict(agent.stateDict());
    expect(textOf(await run(restored, userMsg('Paris again?')))).toBe('Again.');

    const messages = restored.memory.messages();
    const ids = messages.flatMap(toolUses).map((call) => call.id);
    expect(ids).toEqual(['call_0', 'call_0_2', 'call_0_3']);
    expect(messages.flatMap(toolResults).map((result) => result.id)).toEqual(ids);
    expect(messages.at(-2)?.metadata['renamedToolCallIds']).toBeUndefined();
    const renamed = messages.filter((msg) => msg.metadata['renamedToolCallIds'] !== undefined);
    expect(renamed.map((msg) => msg.metadata['renamedToolCallIds'])).toEqual([
      { call_0_2: 'call_0' },
      { call_0_3: 'call_0' },
    ]);
    // The strict server (like the real API) rejects a repeated tool_call id: none was sent.
    expect(server.rejected).toEqual([]);
    expect(server.requests).toHaveLength(6);
  });
});
