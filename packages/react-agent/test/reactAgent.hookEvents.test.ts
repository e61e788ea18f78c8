import { AgentBase, type HookEventType, Toolkit, tool, toolResults, userMsg } from '@rxagent/core';
import { of } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ChunkEventBuilder } from '../src/reasoning/chunkEvents.js';
import { harness, run, weatherTool } from './harness.js';

const turnEvents: HookEventType[] = [
  'preCall',
  'postCall',
  'preReasoning',
  'postReasoning',
  'preActing',
  'postActing',
];
const script = () => [
  { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
  'It is sunny in Paris today.',
];

afterEach(() => {
  vi.restoreAllMocks();
  AgentBase.clearSystemHooks();
});

describe('ReActAgent hooks naming their events', () => {
  it('builds no per-chunk event when the only hook ignores chunks', async () => {
    const eventsOf = vi.spyOn(ChunkEventBuilder.prototype, 'eventsOf');
    const { agent } = await harness(script(), { toolkit: new Toolkit([weatherTool()]) });
    const seen: string[] = [];
    agent.addHook({ events: turnEvents, onEvent: (event) => void seen.push(event.type) });

    await run(agent, userMsg('Weather in Paris?'));

    expect(eventsOf).not.toHaveBeenCalled();
    expect(seen).toEqual([
      'preCall',
      'preReasoning',
      'postReasoning',
      'preActing',
      'postActing',
      'preReasoning',
      'postReasoning',
      'postCall',
    ]);
  });

  it('builds the chunk events when a hook names reasoningChunk, and gives it only those', async () => {
    const eventsOf = vi.spyOn(ChunkEventBuilder.prototype, 'eventsOf');
    const { agent } = await harness(script(), { toolkit: new Toolkit([weatherTool()]) });
    const seen = new Set<string>();
    AgentBase.addSystemHook({
      events: ['reasoningChunk'],
      onEvent: (event) => void seen.add(event.type),
    });

    await run(agent, userMsg('Weather in Paris?'));

    expect(eventsOf).toHaveBeenCalled();
    expect([...seen]).toEqual(['reasoningChunk']);
  });
});

describe('ReActAgent streaming tools without listeners', () => {
  const progress = tool({
    name: 'progress',
    description: 'Reports progress, then its result.',
    parameters: z.object({}),
    execute: () => of('10%', '50%', 'done'),
  });
  const script = () => [{ toolCalls: [{ name: 'progress', arguments: {} }] }, 'Finished.'];

  it('stores the result, not a chunk, when no hook listens to actingChunk', async () => {
    const { agent } = await harness(script(), { toolkit: new Toolkit([progress]) });
    agent.addHook({ events: ['postActing'], onEvent: () => undefined });

    await run(agent, userMsg('go'));

    expect(
      agent.memory
        .messages()
        .flatMap(toolResults)
        .map((r) => r.output),
    ).toEqual(['done']);
  });

  it('stores the same result when nothing listens at all', async () => {
    const { agent } = await harness(script(), { toolkit: new Toolkit([progress]) });
    await run(agent, userMsg('go'));
    expect(
      agent.memory
        .messages()
        .flatMap(toolResults)
        .map((r) => r.output),
    ).toEqual(['done']);
  });
});
