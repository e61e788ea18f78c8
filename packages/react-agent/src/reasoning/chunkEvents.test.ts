import type { ChatChunk, Msg, ReasoningChunkEvent } from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import { ArgumentsScanner } from './argumentsScanner.js';
import { ChunkEventBuilder } from './chunkEvents.js';

const draft: Omit<Msg, 'content'> = {
  id: 'draft',
  name: 'assistant',
  role: 'assistant',
  metadata: {},
  timestamp: '2026-01-01T00:00:00.000Z',
};

function run(chunks: ChatChunk[]): ReasoningChunkEvent[] {
  const builder = new ChunkEventBuilder({} as ReasoningChunkEvent['agent'], draft);
  return chunks.flatMap((chunk) => builder.eventsOf(chunk));
}

const call = (
  index: number,
  fields: Omit<NonNullable<ChatChunk['toolCalls']>[number], 'index'>,
) => ({
  toolCalls: [{ index, ...fields }],
});

describe('ChunkEventBuilder', () => {
  it('holds a tool_use block per call begun so far, with input {} until its arguments are complete', () => {
    const events = run([
      { thinking: 'Two cities.' },
      { text: 'Checking.' },
      call(0, { id: 'a', name: 'get_weather' }),
      call(0, { arguments: '{"city":' }),
      call(0, { arguments: ' "Paris"}' }),
      call(1, { id: 'b', name: 'get_' }),
      call(1, { name: 'time', arguments: '{"city":"Ro' }),
    ]);
    const contents = events.map((event) => event.accumulated.content);
    expect(contents[1]).toEqual([
      { type: 'thinking', thinking: 'Two cities.' },
      { type: 'text', text: 'Checking.' },
    ]);
    expect(contents[2]!.slice(2)).toEqual([
      { type: 'tool_use', id: 'a', name: 'get_weather', input: {} },
    ]);
    expect(contents[3]!.slice(2)).toEqual([
      { type: 'tool_use', id: 'a', name: 'get_weather', input: {} },
    ]);
    expect(contents[4]!.slice(2)).toEqual([
      { type: 'tool_use', id: 'a', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(contents[6]!.slice(2)).toEqual([
      { type: 'tool_use', id: 'a', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'b', name: 'get_time', input: {} },
    ]);
    // Earlier snapshots are left as they were.
    expect(contents[3]![2]).toEqual({ type: 'tool_use', id: 'a', name: 'get_weather', input: {} });
    expect(events.map((event) => event.accumulated.id)).toEqual(Array(7).fill('draft'));
  });

  it('starts a new call when another id arrives at an index in use (calls all numbered 0)', () => {
    const events = run([
      call(0, { id: 'a', name: 'f', arguments: '{}' }),
      call(0, { id: 'b', name: 'f', arguments: '{"x":1}' }),
    ]);
    expect(events.at(-1)!.accumulated.content.slice(1)).toEqual([
      { type: 'tool_use', id: 'a', name: 'f', input: {} },
      { type: 'tool_use', id: 'b', name: 'f', input: { x: 1 } },
    ]);
  });

  it('keeps input {} for arguments that close but are not a JSON object', () => {
    const events = run([call(0, { id: 'a', name: 'f', arguments: '{"x": tru}' })]);
    expect(events[0]!.accumulated.content[1]).toEqual({
      type: 'tool_use',
      id: 'a',
      name: 'f',
      input: {},
    });
  });

  it('ignores a delta with an invalid index (the reply fails when it completes)', () => {
    const events = run([call(-1, { id: 'a', name: 'f' })]);
    expect(events[0]!.accumulated.content).toEqual([{ type: 'text', text: '' }]);
  });
});

describe('ArgumentsScanner', () => {
  const completeAfter = (pieces: string[]): boolean[] => {
    const scanner = new ArgumentsScanner();
    return pieces.map((piece) => {
      scanner.scan(piece);
      return scanner.complete;
    });
  };

  it('tells when the top-level object closes, across pieces, strings and nesting', () => {
    expect(completeAfter(['{"a": {"b"', ': [1, {}]}', ', "c": "}"', '}'])).toEqual([
      false,
      false,
      false,
      true,
    ]);
    expect(completeAfter(['{"q": "say \\"', '}\\" ok"', '}  '])).toEqual([false, false, true]);
    expect(completeAfter(['', '  '])).toEqual([false, false]);
  });

  it('is incomplete again when text follows the closing brace', () => {
    expect(completeAfter(['{}', ' {'])).toEqual([true, false]);
  });
});
