import { describe, expect, it } from 'vitest';
import { responseToMsg } from './responseToMsg.js';

describe('responseToMsg', () => {
  it('keeps thinking, text and tool calls in order, parsing arguments', () => {
    const msg = responseToMsg(
      {
        text: 'Let me check.',
        thinking: 'The user wants weather.',
        toolCalls: [{ id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
      },
      'assistant',
      'fixed-id',
    );

    expect(msg).toMatchObject({
      id: 'fixed-id',
      name: 'assistant',
      role: 'assistant',
      metadata: {},
    });
    expect(msg.content).toEqual([
      { type: 'thinking', thinking: 'The user wants weather.' },
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'c1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
  });

  it('replaces arguments that are not a JSON object with {} and keeps the raw text', () => {
    const msg = responseToMsg(
      {
        text: '',
        thinking: '',
        toolCalls: [
          { id: 'bad', name: 'f', arguments: '{"city": ' },
          { id: 'array', name: 'f', arguments: '[1,2]' },
          { id: 'empty', name: 'f', arguments: '' },
        ],
      },
      'assistant',
    );

    expect(msg.content.map((b) => (b.type === 'tool_use' ? b.input : b))).toEqual([{}, {}, {}]);
    expect(msg.metadata['invalidToolArguments']).toEqual({ bad: '{"city": ', array: '[1,2]' });
  });

  it('gives a reply with nothing in it one empty text block', () => {
    expect(responseToMsg({ text: '', thinking: '', toolCalls: [] }, 'a').content).toEqual([
      { type: 'text', text: '' },
    ]);
  });

  it('records a finish reason other than stop or tool_calls in metadata.finishReason', () => {
    const filtered = responseToMsg(
      { text: '', thinking: '', toolCalls: [], finishReason: 'content_filter' },
      'assistant',
    );
    expect(filtered.metadata['finishReason']).toBe('content_filter');
    const cut = responseToMsg(
      { text: 'Half', thinking: '', toolCalls: [], finishReason: 'length' },
      'a',
    );
    expect(cut.metadata['finishReason']).toBe('length');
    const normal = responseToMsg(
      { text: 'Hi', thinking: '', toolCalls: [], finishReason: 'stop' },
      'a',
    );
    expect(normal.metadata).toEqual({});
  });

  it('keeps what the server sent to be sent back on the blocks, and names the model', () => {
    const details = [{ type: 'reasoning.text', text: 'Hmm.', signature: 'c2ln', index: 0 }];
    const extraContent = { google: { thought_signature: 'AAA=' } };
    const msg = responseToMsg(
      {
        text: '',
        thinking: 'Hmm.',
        reasoningField: 'reasoning',
        reasoningDetails: details,
        toolCalls: [{ id: 'c1', name: 'f', arguments: '{}', extraContent }],
      },
      'assistant',
      undefined,
      'model-a',
    );
    expect(msg.metadata).toEqual({ model: 'model-a' });
    expect(msg.content).toEqual([
      {
        type: 'thinking',
        thinking: 'Hmm.',
        provider: { reasoningField: 'reasoning', reasoningDetails: details },
      },
      { type: 'tool_use', id: 'c1', name: 'f', input: {}, provider: { extraContent } },
    ]);
  });

  it('keeps a thinking block for reasoning sent only as details (encrypted), with empty text', () => {
    const details = [{ type: 'reasoning.encrypted', data: 'ZW5j' }];
    const msg = responseToMsg(
      { text: 'Hi.', thinking: '', reasoningDetails: details, toolCalls: [] },
      'assistant',
    );
    expect(msg.content).toEqual([
      { type: 'thinking', thinking: '', provider: { reasoningDetails: details } },
      { type: 'text', text: 'Hi.' },
    ]);
  });
});

describe('responseToMsg with provider data', () => {
  it('keeps signed and redacted thinking as separate blocks and records the answering model and fallback', () => {
    const msg = responseToMsg(
      {
        text: 'Hi.',
        thinking: 'ab',
        toolCalls: [],
        thinkingBlocks: [
          { type: 'thinking', thinking: 'ab', signature: 'sig' },
          { type: 'thinking', thinking: '', provider: { redacted: 'x' } },
        ],
        model: 'backup',
        metadata: { fallback: [{ model: 'primary', reason: 'failed' }] },
      },
      'assistant',
    );
    expect(msg.content).toEqual([
      { type: 'thinking', thinking: 'ab', signature: 'sig' },
      { type: 'thinking', thinking: '', provider: { redacted: 'x' } },
      { type: 'text', text: 'Hi.' },
    ]);
    expect(msg.metadata).toEqual({
      model: 'backup',
      fallback: [{ model: 'primary', reason: 'failed' }],
    });
  });
});

describe('responseToMsg with ids in use', () => {
  it('renames an id the conversation already uses (inUse), after the ids of its own reply', () => {
    const msg = responseToMsg(
      {
        text: '',
        thinking: '',
        toolCalls: [
          { id: 'call_0', name: 'f', arguments: '{}' },
          { id: 'call_1', name: 'f', arguments: '{}' },
          { id: 'call_0', name: 'f', arguments: '{}' },
        ],
      },
      'assistant',
      undefined,
      undefined,
      new Set(['call_0', 'call_0_2']),
    );
    const ids = msg.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
    expect(ids).toEqual(['call_0_3', 'call_1', 'call_0_4']);
    expect(msg.metadata['renamedToolCallIds']).toEqual({ call_0_3: 'call_0', call_0_4: 'call_0' });
  });

  it('keeps ids the conversation does not use, with no renaming metadata', () => {
    const msg = responseToMsg(
      { text: '', thinking: '', toolCalls: [{ id: 'fresh', name: 'f', arguments: '{}' }] },
      'assistant',
      undefined,
      undefined,
      new Set(['call_0']),
    );
    expect(msg.content).toEqual([{ type: 'tool_use', id: 'fresh', name: 'f', input: {} }]);
    expect(msg.metadata).toEqual({});
  });
});
