import type { ChatChunk, ReasoningChunkEvent } from '@rxagent/core';
import { unfrozenPath } from '@rxagent/core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChunkEventBuilder } from './chunkEvents.js';

function builder(): ChunkEventBuilder {
  return new ChunkEventBuilder({} as ReasoningChunkEvent['agent'], {
    id: 'draft',
    name: 'assistant',
    role: 'assistant',
    metadata: {},
    timestamp: '2026-01-01T00:00:00.000Z',
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ChunkEventBuilder: frozen accumulated replies', () => {
  it('hands out every accumulated reply deeply frozen', () => {
    const one = builder();
    const all = [
      { thinking: 'Two cities.' },
      { text: 'Checking.' },
      { toolCalls: [{ index: 0, id: 'a', name: 'get_weather', arguments: '{"city":' }] },
      { toolCalls: [{ index: 0, arguments: ' {"name": "Paris", "tags": ["x"]}}' }] },
    ].flatMap((chunk) => one.eventsOf(chunk as ChatChunk));
    for (const event of all) expect(unfrozenPath(event.accumulated, 'accumulated')).toBeUndefined();
    expect(all.at(-1)?.accumulated.content.at(-1)).toMatchObject({
      input: { city: { name: 'Paris', tags: ['x'] } },
    });
  });

  it('freezes only what each chunk adds, not the whole reply so far', () => {
    // Five calls begun, then many text chunks: each event freezes its new objects (the
    // Msg, its content array, the text block), never the calls' blocks again.
    const chunks = builder();
    for (let index = 0; index < 5; index++)
      chunks.eventsOf({
        toolCalls: [{ index, id: `c${index}`, name: 't', arguments: '{"a":{"b":[1,2,3]}}' }],
      });
    const freeze = vi.spyOn(Object, 'freeze');
    const rounds = 200;
    for (let round = 0; round < rounds; round++) chunks.eventsOf({ text: 'word ' });
    expect(freeze.mock.calls.length / rounds).toBeLessThanOrEqual(3);
  });
});
