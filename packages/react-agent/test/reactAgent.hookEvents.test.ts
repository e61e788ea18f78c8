import { AgentBase, type HookEventType, Toolkit, userMsg } from '@rxagent/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
