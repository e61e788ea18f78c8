import { ChatResponseAccumulator, ModelError } from '@rxagent/core';
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { fromChatChunk, fromChatCompletion, toUsage } from './fromChatChunk.js';

const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm' } as const;

function chunk(delta: object, extra: object = {}): ChatCompletionChunk {
  return {
    ...base,
    choices: [{ index: 0, delta, finish_reason: null, logprobs: null }],
    ...extra,
  } as ChatCompletionChunk;
}

describe('fromChatChunk', () => {
  it('maps delta.content to text', () => {
    expect(fromChatChunk(chunk({ content: 'Hel' }))).toEqual({ text: 'Hel' });
  });

  it('returns undefined for a role-only delta', () => {
    expect(fromChatChunk(chunk({ role: 'assistant', content: '' }))).toBeUndefined();
  });

  it('maps reasoning_content and reasoning to thinking, naming the field that carried it', () => {
    expect(fromChatChunk(chunk({ reasoning_content: 'Let me think' }))).toEqual({
      thinking: 'Let me think',
      reasoningField: 'reasoning_content',
    });
    expect(fromChatChunk(chunk({ reasoning: 'Hmm', content: null }))).toEqual({
      thinking: 'Hmm',
      reasoningField: 'reasoning',
    });
  });

  it('maps reasoning_details pieces and a tool call extra_content as the server sent them', () => {
    const detail = { type: 'reasoning.text', text: 'Hmm', format: 'anthropic-claude-v1', index: 0 };
    expect(fromChatChunk(chunk({ reasoning: 'Hmm', reasoning_details: [detail] }))).toEqual({
      thinking: 'Hmm',
      reasoningField: 'reasoning',
      reasoningDetails: [detail],
    });
    expect(fromChatChunk(chunk({ content: '', reasoning: null, reasoning_details: [] }))).toBe(
      undefined,
    );
    const extra = { google: { thought_signature: 'c2ln' } };
    const call = chunk({
      tool_calls: [
        {
          index: 0,
          id: 'call_g',
          type: 'function',
          function: { name: 'weather', arguments: '{}' },
          extra_content: extra,
        } as never,
      ],
    });
    expect(fromChatChunk(call)).toEqual({
      toolCalls: [
        { index: 0, id: 'call_g', name: 'weather', arguments: '{}', extraContent: extra },
      ],
    });
  });

  it('maps tool-call deltas by index, keeping only the fields present', () => {
    const first = chunk({
      tool_calls: [
        { index: 0, id: 'call_a', type: 'function', function: { name: 'weather', arguments: '' } },
      ],
    });
    const second = chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] });
    expect(fromChatChunk(first)).toEqual({
      toolCalls: [{ index: 0, id: 'call_a', name: 'weather' }],
    });
    expect(fromChatChunk(second)).toEqual({ toolCalls: [{ index: 0, arguments: '{"city":' }] });
  });

  it('maps finish_reason', () => {
    const done = {
      ...base,
      choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls', logprobs: null }],
    } as ChatCompletionChunk;
    expect(fromChatChunk(done)).toEqual({ finishReason: 'tool_calls' });
  });

  it('maps the final usage chunk, which has no choices', () => {
    const usage = {
      ...base,
      choices: [],
      usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
    } as ChatCompletionChunk;
    expect(fromChatChunk(usage)).toEqual({
      usage: { inputTokens: 12, outputTokens: 5, totalTokens: 17, cachedInputTokens: 0 },
    });
  });

  it('assembles two parallel tool calls streamed interleaved', () => {
    const chunks = [
      chunk({ role: 'assistant', content: null }),
      chunk({
        tool_calls: [
          { index: 0, id: 'a', type: 'function', function: { name: 'w', arguments: '' } },
        ],
      }),
      chunk({
        tool_calls: [
          { index: 1, id: 'b', type: 'function', function: { name: 't', arguments: '' } },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"c":"Oslo"}' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '{}' } }] }),
    ];
    const accumulator = new ChatResponseAccumulator();
    for (const c of chunks) {
      const mapped = fromChatChunk(c);
      if (mapped) accumulator.add(mapped);
    }
    expect(accumulator.response().toolCalls).toEqual([
      { id: 'a', name: 'w', arguments: '{"c":"Oslo"}' },
      { id: 'b', name: 't', arguments: '{}' },
    ]);
  });
});

describe('fromChatCompletion', () => {
  it('maps a whole completion to one chunk with text, tool calls, usage and finish reason', () => {
    const completion = {
      id: 'chatcmpl-2',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          logprobs: null,
          message: {
            role: 'assistant',
            content: 'Looking.',
            refusal: null,
            reasoning_content: 'User wants weather.',
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'weather', arguments: '{"c":1}' },
              },
              { id: 'call_2', type: 'function', function: { name: 'time', arguments: '{}' } },
            ],
          },
        },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    } as unknown as ChatCompletion;
    expect(fromChatCompletion(completion)).toEqual({
      text: 'Looking.',
      thinking: 'User wants weather.',
      reasoningField: 'reasoning_content',
      toolCalls: [
        { index: 0, id: 'call_1', name: 'weather', arguments: '{"c":1}' },
        { index: 1, id: 'call_2', name: 'time', arguments: '{}' },
      ],
      usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7, cachedInputTokens: 0 },
      finishReason: 'tool_calls',
    });
  });

  it('returns an empty chunk for a completion without choices', () => {
    const empty = { id: 'x', object: 'chat.completion', created: 1, model: 'm', choices: [] };
    expect(fromChatCompletion(empty as ChatCompletion)).toEqual({});
  });
});

describe('toUsage', () => {
  it('sums the parts when the server omits total_tokens', () => {
    const partial = { prompt_tokens: 2, completion_tokens: 3 } as Parameters<typeof toUsage>[0];
    expect(toUsage(partial)).toEqual({
      inputTokens: 2,
      outputTokens: 3,
      totalTokens: 5,
      cachedInputTokens: 0,
    });
    expect(toUsage(null)).toBeUndefined();
  });
});

function assemble(chunks: ChatCompletionChunk[]) {
  const accumulator = new ChatResponseAccumulator();
  for (const c of chunks) {
    const mapped = fromChatChunk(c);
    if (mapped) accumulator.add(mapped);
  }
  return accumulator.response();
}

function raw(value: object): ChatCompletionChunk {
  return { ...base, ...value } as ChatCompletionChunk;
}

describe('fromChatChunk on hostile and dialect chunks', () => {
  it.each([['__proto__'], ['constructor'], [200_000_000], [-1], [1.5], [128]])(
    'throws a ModelError naming the bad tool-call index %s',
    (index) => {
      const bad = chunk({ tool_calls: [{ index, id: 'x', function: { name: 'f' } }] });
      expect(() => fromChatChunk(bad)).toThrow(ModelError);
      expect(() => fromChatChunk(bad)).toThrow(/tool-call index/);
      expect((Array.prototype as unknown as Record<string, unknown>)['id']).toBeUndefined();
    },
  );

  it('throws a ModelError for a chunk that is not an object or a tool call that is not one', () => {
    expect(() => fromChatChunk(null as unknown as ChatCompletionChunk)).toThrow(/not an object/);
    expect(() => fromChatChunk(chunk({ tool_calls: [null] }))).toThrow(ModelError);
  });

  it('ignores tool-call names and arguments that are not strings', () => {
    const odd = chunk({
      tool_calls: [{ index: 0, id: 'a', function: { name: { x: 1 }, arguments: 7 } }],
    });
    expect(fromChatChunk(odd)).toEqual({ toolCalls: [{ index: 0, id: 'a' }] });
  });

  it('parses tool calls without an index, each in its own chunk', () => {
    const response = assemble([
      chunk({
        tool_calls: [{ id: 'a', type: 'function', function: { name: 'w', arguments: '{}' } }],
      }),
      chunk({
        tool_calls: [{ id: 'b', type: 'function', function: { name: 't', arguments: '{"x":1}' } }],
      }),
    ]);
    expect(response.toolCalls).toEqual([
      { id: 'a', name: 'w', arguments: '{}' },
      { id: 'b', name: 't', arguments: '{"x":1}' },
    ]);
  });

  it('keeps parallel calls that share index 0 but differ by id apart', () => {
    const response = assemble([
      chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'w', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"c":1}' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'b', function: { name: 't', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"c":2}' } }] }),
    ]);
    expect(response.toolCalls).toEqual([
      { id: 'a', name: 'w', arguments: '{"c":1}' },
      { id: 'b', name: 't', arguments: '{"c":2}' },
    ]);
  });

  it('parses a choice without a delta (content filter) and keeps its finish reason', () => {
    const filtered = raw({
      choices: [{ index: 0, finish_reason: 'content_filter', content_filter_results: {} }],
    });
    expect(fromChatChunk(filtered)).toEqual({ finishReason: 'content_filter' });
    const midStream = raw({
      choices: [{ index: 0, finish_reason: null, content_filter_offsets: {} }],
    });
    expect(fromChatChunk(midStream)).toBeUndefined();
  });

  it('reads content sent as typed parts: text parts as text, thinking parts as thinking', () => {
    expect(
      fromChatChunk(
        chunk({
          content: [
            { type: 'thinking', thinking: [{ type: 'text', text: 'Weighing it.' }] },
            { type: 'text', text: 'Answer' },
          ],
        }),
      ),
    ).toEqual({ text: 'Answer', thinking: 'Weighing it.' });
    expect(
      fromChatChunk(chunk({ content: [{ type: 'image_url', image_url: {} }] })),
    ).toBeUndefined();
  });

  it("reads Groq's usage from x_groq of the finishing chunk", () => {
    const groq = raw({
      choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
      x_groq: { id: 'req_1', usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 } },
    });
    expect(fromChatChunk(groq)).toEqual({
      finishReason: 'stop',
      usage: { inputTokens: 4, outputTokens: 2, totalTokens: 6, cachedInputTokens: 0 },
    });
  });

  it('reads usage from any chunk, also one that carries a delta', () => {
    const withUsage = chunk(
      { content: 'Hi' },
      { usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } },
    );
    expect(fromChatChunk(withUsage)).toEqual({
      text: 'Hi',
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2, cachedInputTokens: 0 },
    });
  });
});

describe('fromChatCompletion on dialects and non-completions', () => {
  const completion = (message: object, finish = 'stop') =>
    ({
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [{ index: 0, finish_reason: finish, message }],
    }) as unknown as ChatCompletion;

  it('reads arguments sent as an object and skips tool calls that are not objects', () => {
    const odd = completion({
      role: 'assistant',
      content: null,
      tool_calls: [null, { id: 'a', function: { name: 'w', arguments: { city: 'Oslo' } } }],
    });
    expect(fromChatCompletion(odd).toolCalls).toEqual([
      { index: 0, id: 'a', name: 'w', arguments: '{"city":"Oslo"}' },
    ]);
  });

  it('reads content sent as typed parts', () => {
    const typed = completion({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: [{ type: 'text', text: 'Hmm.' }] },
        { type: 'text', text: 'Four.' },
      ],
    });
    expect(fromChatCompletion(typed)).toEqual({
      text: 'Four.',
      thinking: 'Hmm.',
      finishReason: 'stop',
    });
  });

  it('keeps a content_filter finish reason of a choice without a message', () => {
    const filtered = {
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [{ index: 0, finish_reason: 'content_filter' }],
    } as unknown as ChatCompletion;
    expect(fromChatCompletion(filtered)).toEqual({ finishReason: 'content_filter' });
  });

  it.each([
    ['an HTML page', '<html><body>Bad gateway</body></html>'],
    ['an empty body', ''],
    ['a JSON error', { error: { message: 'model overloaded' } }],
  ])('throws a ModelError for %s', (_, body) => {
    expect(() => fromChatCompletion(body as unknown as ChatCompletion)).toThrow(ModelError);
    expect(() => fromChatCompletion(body as unknown as ChatCompletion)).toThrow(
      /not a chat completion/,
    );
  });
});
