import { type ContentBlock, replyMetadata, Toolkit, toolResults, userMsg } from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import { harness, run, textOf, weatherTool } from './harness.js';

describe('ReActAgent replies cut by the output-token limit', () => {
  it.each([true, false])('ends with generateReason "length" (stream: %s)', async (stream) => {
    const { agent } = await harness([{ text: 'The answer is forty', finishReason: 'length' }], {
      stream,
    });
    const reply = await run(agent, userMsg('Tell me everything.'));
    expect(textOf(reply)).toBe('The answer is forty');
    expect(replyMetadata(reply).generateReason).toBe('length');
    expect(reply.metadata['finishReason']).toBe('length');
    expect(agent.memory.messages().at(-1)?.id).toBe(reply.id);
  });

  it('ends an empty reply cut by the limit at once with "length", without a reminder', async () => {
    const { agent, server } = await harness([
      { thinking: 'So much to think about', finishReason: 'length' },
    ]);
    const reply = await run(agent, userMsg('Think hard.'));
    expect(replyMetadata(reply).generateReason).toBe('length');
    expect(server.requests).toHaveLength(1);
  });

  it('answers a tool call whose arguments the limit cut with an error result, and goes on', async () => {
    const { agent } = await harness(
      [
        {
          toolCalls: [{ name: 'get_weather', arguments: '{"city": "Par' }],
          finishReason: 'length',
        },
        'Sorry, let me be brief: ask again.',
      ],
      { toolkit: new Toolkit([weatherTool()]) },
    );
    const reply = await run(agent, userMsg('Weather in Paris?'));
    expect(replyMetadata(reply).generateReason).toBe('stop');
    const cut = agent.memory.messages()[1]!;
    expect(cut.metadata['finishReason']).toBe('length');
    const [result] = toolResults(agent.memory.messages()[2]!);
    expect(result?.isError).toBe(true);
  });
});

describe('reasoningChunk.accumulated while tool calls stream', () => {
  it('holds a tool_use block for every call begun so far, input {} until its arguments are complete', async () => {
    const { agent } = await harness(
      [
        {
          thinking: 'Two cities.',
          toolCalls: [
            { id: 'call_p', name: 'get_weather', arguments: { city: 'Paris' } },
            { id: 'call_r', name: 'get_weather', arguments: { city: 'Rome, Lazio, Italia' } },
          ],
        },
        'Done.',
      ],
      { toolkit: new Toolkit([weatherTool()]) },
    );
    const seen: { delta: string | undefined; tools: ContentBlock[] }[] = [];
    agent.addHook({
      onEvent: (event) => {
        if (event.type !== 'reasoningChunk' || !event.delta.toolCall) return;
        seen.push({
          delta: event.delta.toolCall.id,
          tools: event.accumulated.content.filter((block) => block.type === 'tool_use'),
        });
      },
    });
    await run(agent, userMsg('Paris and Rome?'));
    const paris = (input = {}) => ({ type: 'tool_use', id: 'call_p', name: 'get_weather', input });
    const rome = (input = {}) => ({ type: 'tool_use', id: 'call_r', name: 'get_weather', input });
    // call_p: a head and 2+ argument fragments; the arguments complete on the last one.
    expect(seen[0]).toEqual({ delta: 'call_p', tools: [paris()] });
    const romeStart = seen.findIndex((entry) => entry.delta === 'call_r');
    expect(romeStart).toBeGreaterThan(2);
    for (const entry of seen.slice(1, romeStart - 1)) expect(entry.tools).toEqual([paris()]);
    expect(seen[romeStart - 1]!.tools).toEqual([paris({ city: 'Paris' })]);
    expect(seen[romeStart]!.tools).toEqual([paris({ city: 'Paris' }), rome()]);
    expect(seen.at(-2)!.tools).toEqual([paris({ city: 'Paris' }), rome()]);
    expect(seen.at(-1)!.tools).toEqual([
      paris({ city: 'Paris' }),
      rome({ city: 'Rome, Lazio, Italia' }),
    ]);
  });
});
