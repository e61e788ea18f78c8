import { describe, expect, it } from 'vitest';
import { ModelError } from '../errors.js';
import { addUsage, ChatResponseAccumulator, MAX_TOOL_CALL_INDEX } from './chatResponse.js';

describe('ChatResponseAccumulator', () => {
  it('assembles tool-call deltas that share an index into one call', () => {
    const accumulator = new ChatResponseAccumulator();
    accumulator.add({ toolCalls: [{ index: 0, id: 'call_a', name: 'weather' }] });
    accumulator.add({ toolCalls: [{ index: 0, arguments: '{"city":' }] });
    accumulator.add({ toolCalls: [{ index: 0, arguments: '"Paris"}' }] });
    expect(accumulator.response().toolCalls).toEqual([
      { id: 'call_a', name: 'weather', arguments: '{"city":"Paris"}' },
    ]);
  });

  it('starts a new call when a new id arrives at an index already in use', () => {
    const accumulator = new ChatResponseAccumulator();
    accumulator.add({ toolCalls: [{ index: 0, id: 'a', name: 'weather', arguments: '{"c":1}' }] });
    accumulator.add({ toolCalls: [{ index: 0, id: 'b', name: 'time' }] });
    accumulator.add({ toolCalls: [{ index: 0, arguments: '{"c":2}' }] });
    expect(accumulator.response().toolCalls).toEqual([
      { id: 'a', name: 'weather', arguments: '{"c":1}' },
      { id: 'b', name: 'time', arguments: '{"c":2}' },
    ]);
  });

  it('keeps one call when a server repeats the same id in every delta', () => {
    const accumulator = new ChatResponseAccumulator();
    accumulator.add({ toolCalls: [{ index: 0, id: 'a', name: 'f', arguments: '{' }] });
    accumulator.add({ toolCalls: [{ index: 0, id: 'a', name: 'f', arguments: '}' }] });
    expect(accumulator.response().toolCalls).toEqual([{ id: 'a', name: 'f', arguments: '{}' }]);
  });

  it.each([
    ['"__proto__"', '__proto__'],
    ['"constructor"', 'constructor'],
    ['a negative number', -1],
    ['a fraction', 0.5],
    ['a huge index', 200_000_000],
    ['the bound itself', MAX_TOOL_CALL_INDEX + 1],
  ])('never throws on %s as an index, and response() errors with a ModelError', (_, index) => {
    const accumulator = new ChatResponseAccumulator();
    const started = performance.now();
    expect(() =>
      accumulator.add({ toolCalls: [{ index: index as number, id: 'x', name: 'evil' }] }),
    ).not.toThrow();
    expect(() => accumulator.response()).toThrow(ModelError);
    expect(() => accumulator.response()).toThrow(/tool-call index/);
    expect(performance.now() - started).toBeLessThan(50);
    expect((Array.prototype as unknown as Record<string, unknown>)['id']).toBeUndefined();
    expect((Array.prototype as unknown as Record<string, unknown>)['name']).toBeUndefined();
  });

  it('accepts the largest allowed index', () => {
    const accumulator = new ChatResponseAccumulator();
    accumulator.add({ toolCalls: [{ index: MAX_TOOL_CALL_INDEX, id: 'x', name: 'f' }] });
    expect(accumulator.response().toolCalls).toEqual([{ id: 'x', name: 'f', arguments: '' }]);
  });

  it('records the reasoning field, merges reasoning_details pieces by index and keeps extra_content', () => {
    const accumulator = new ChatResponseAccumulator();
    const piece = (text: string, extra = {}) => ({
      type: 'reasoning.text',
      text,
      format: 'anthropic-claude-v1',
      index: 0,
      ...extra,
    });
    accumulator.add({
      thinking: 'Two ',
      reasoningField: 'reasoning',
      reasoningDetails: [piece('Two ')],
    });
    accumulator.add({
      thinking: 'calls.',
      reasoningField: 'reasoning',
      reasoningDetails: [piece('calls.', { signature: null })],
    });
    accumulator.add({ reasoningDetails: [piece('', { signature: 'c2ln' })] });
    accumulator.add({ reasoningDetails: [{ type: 'reasoning.encrypted', data: 'ZW5j' }] });
    accumulator.add({
      toolCalls: [
        { index: 0, id: 'c', name: 'f', extraContent: { google: { thought_signature: 'AAA' } } },
      ],
    });
    accumulator.add({ toolCalls: [{ index: 0, arguments: '{}' }] });
    const response = accumulator.response();
    expect(response.reasoningField).toBe('reasoning');
    expect(response.reasoningDetails).toEqual([
      {
        type: 'reasoning.text',
        text: 'Two calls.',
        format: 'anthropic-claude-v1',
        index: 0,
        signature: 'c2ln',
      },
      { type: 'reasoning.encrypted', data: 'ZW5j' },
    ]);
    expect(response.toolCalls).toEqual([
      {
        id: 'c',
        name: 'f',
        arguments: '{}',
        extraContent: { google: { thought_signature: 'AAA' } },
      },
    ]);
  });
});

describe('ChatResponseAccumulator thinking blocks', () => {
  it('splits thinking into blocks at each signature, keeps redacted blocks in order, and joins the text', () => {
    const accumulator = new ChatResponseAccumulator();
    accumulator.add({ thinking: 'Let me ' });
    accumulator.add({ thinking: 'think.' });
    accumulator.add({ thinkingSignature: 'sig-1' });
    accumulator.add({ redactedThinking: 'opaque' });
    accumulator.add({ thinking: 'More.' });
    accumulator.add({ thinkingSignature: 'sig-2' });
    const response = accumulator.response();
    expect(response.thinking).toBe('Let me think.More.');
    expect(response.thinkingBlocks).toEqual([
      { type: 'thinking', thinking: 'Let me think.', signature: 'sig-1' },
      { type: 'thinking', thinking: '', provider: { redacted: 'opaque' } },
      { type: 'thinking', thinking: 'More.', signature: 'sig-2' },
    ]);
  });

  it('has no thinking blocks when nothing was signed, and keeps the model and metadata a chunk named', () => {
    const accumulator = new ChatResponseAccumulator();
    accumulator.add({ thinking: 'plain', model: 'backup', metadata: { fallback: [] } });
    accumulator.add({ metadata: { extra: 1 } });
    const response = accumulator.response();
    expect(response.thinkingBlocks).toBeUndefined();
    expect(response.model).toBe('backup');
    expect(response.metadata).toEqual({ fallback: [], extra: 1 });
  });

  it('counts a redacted block alone as content', () => {
    const accumulator = new ChatResponseAccumulator();
    accumulator.add({ redactedThinking: 'x' });
    expect(accumulator.hasContent).toBe(true);
  });
});

describe('addUsage', () => {
  it('sums cache tokens when either side has them', () => {
    const a = { inputTokens: 10, outputTokens: 1, totalTokens: 11, cacheReadTokens: 8 };
    const b = { inputTokens: 5, outputTokens: 2, totalTokens: 7, cacheWriteTokens: 4 };
    expect(addUsage(a, b)).toEqual({
      inputTokens: 15,
      outputTokens: 3,
      totalTokens: 18,
      cacheReadTokens: 8,
      cacheWriteTokens: 4,
    });
  });
});
