import { ChatResponseAccumulator, ModelError } from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import { StreamEventReader } from './streamEventReader.js';

function read(events: unknown[]) {
  const reader = new StreamEventReader();
  const accumulator = new ChatResponseAccumulator();
  for (const event of events) {
    const chunk = reader.read(event);
    if (chunk) accumulator.add(chunk);
  }
  return { reader, response: accumulator.response() };
}

const start = {
  type: 'message_start',
  message: {
    usage: {
      input_tokens: 10,
      output_tokens: 1,
      cache_read_input_tokens: 4,
      cache_creation_input_tokens: 2,
    },
  },
};

describe('StreamEventReader', () => {
  it('assembles text, signed thinking and parallel tool calls, with usage counting cache tokens as input', () => {
    const { reader, response } = read([
      start,
      { type: 'ping' },
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'thinking_delta', thinking: 'Hmm.' },
      },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'S' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi' } },
      { type: 'content_block_stop', index: 1 },
      {
        type: 'content_block_start',
        index: 2,
        content_block: { type: 'tool_use', id: 'a', name: 'f', input: {} },
      },
      {
        type: 'content_block_delta',
        index: 2,
        delta: { type: 'input_json_delta', partial_json: '{"x":' },
      },
      {
        type: 'content_block_delta',
        index: 2,
        delta: { type: 'input_json_delta', partial_json: '1}' },
      },
      { type: 'content_block_stop', index: 2 },
      {
        type: 'content_block_start',
        index: 3,
        content_block: { type: 'tool_use', id: 'b', name: 'g', input: {} },
      },
      { type: 'content_block_stop', index: 3 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 7 } },
      { type: 'message_stop' },
    ]);
    expect(reader.finished).toBe(true);
    expect(response).toEqual({
      text: 'Hi',
      thinking: 'Hmm.',
      thinkingBlocks: [{ type: 'thinking', thinking: 'Hmm.', signature: 'S' }],
      toolCalls: [
        { id: 'a', name: 'f', arguments: '{"x":1}' },
        { id: 'b', name: 'g', arguments: '{}' },
      ],
      finishReason: 'tool_calls',
      usage: {
        inputTokens: 16,
        outputTokens: 7,
        totalTokens: 23,
        cachedInputTokens: 4,
        cacheReadTokens: 4,
        cacheWriteTokens: 2,
      },
    });
  });

  it('keeps redacted thinking as its own block and maps max_tokens to length', () => {
    const { response } = read([
      start,
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'redacted_thinking', data: 'D' },
      },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: 1 } },
    ]);
    expect(response.thinkingBlocks).toEqual([
      { type: 'thinking', thinking: '', provider: { redacted: 'D' } },
    ]);
    expect(response.finishReason).toBe('length');
  });

  it('ignores unknown events, block types and deltas (later API versions)', () => {
    const { response } = read([
      start,
      { type: 'something_new' },
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'server_tool_use', id: 's', name: 'web' },
      },
      { type: 'content_block_delta', index: 0, delta: { type: 'citations_delta', citation: {} } },
      { type: 'content_block_stop', index: 0 },
    ]);
    expect(response.toolCalls).toEqual([]);
  });

  it.each([
    ['a string event', 'oops', /not an object/],
    [
      'a delta for a block never started',
      { type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: 'x' } },
      /never started/,
    ],
    [
      'a bad index',
      { type: 'content_block_start', index: -1, content_block: { type: 'text' } },
      /block index -1/,
    ],
    [
      'a tool_use without id',
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', name: 'f' } },
      /without a string id/,
    ],
  ])('throws a ModelError for %s', (_, event, message) => {
    const reader = new StreamEventReader();
    expect(() => reader.read(event)).toThrow(ModelError);
    expect(() => new StreamEventReader().read(event)).toThrow(message);
  });
});
