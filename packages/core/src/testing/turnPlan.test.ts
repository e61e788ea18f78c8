import { describe, expect, it } from 'vitest';
import { planTurn, splitArguments, splitText } from './turnPlan.js';

const ids = () => {
  let n = 0;
  return () => `call_${++n}`;
};

describe('splitText', () => {
  it('splits into words with their leading whitespace by default, keeping every character', () => {
    expect(splitText('Hello  big\nworld! ')).toEqual(['Hello', '  big', '\nworld! ']);
    expect(splitText('   ')).toEqual(['   ']);
    expect(splitText('')).toEqual([]);
  });

  it('splits into chunkSize characters when given', () => {
    expect(splitText('abcdefg', 3)).toEqual(['abc', 'def', 'g']);
  });
});

describe('splitArguments', () => {
  it('splits arguments of 2+ characters into 2+ fragments of at most 16 characters', () => {
    expect(splitArguments('{}')).toEqual(['{', '}']);
    const long = JSON.stringify({ city: 'Paris', units: 'metric', days: 3 });
    const fragments = splitArguments(long);
    expect(fragments.join('')).toBe(long);
    expect(fragments.length).toBeGreaterThan(2);
    expect(Math.max(...fragments.map((f) => f.length))).toBeLessThanOrEqual(16);
    expect(splitArguments('')).toEqual([]);
  });
});

describe('planTurn', () => {
  it('fills missing tool call ids, serialises object arguments and finishes with tool_calls', () => {
    const plan = planTurn(
      {
        toolCalls: [
          { name: 'a', arguments: { x: 1 } },
          { id: 'mine', name: 'b', arguments: 'raw{' },
        ],
      },
      [],
      ids(),
    );
    expect(plan.toolCalls.map((c) => [c.id, c.arguments])).toEqual([
      ['call_1', '{"x":1}'],
      ['mine', 'raw{'],
    ]);
    expect(plan.finishReason).toBe('tool_calls');
  });

  it('estimates usage as ceil(chars / 4) of the messages and of the output', () => {
    const messages = [
      { role: 'user', content: 'abcdefgh' }, // 8
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ function: { name: 'f', arguments: '{}' } }],
      }, // 3
      { role: 'tool', content: [{ type: 'text', text: 'ok' }] }, // 2
    ];
    const plan = planTurn({ text: 'hello', thinking: 'hm' }, messages, ids());
    expect(plan.usage).toEqual({ inputTokens: 4, outputTokens: 2, totalTokens: 6 });
    expect(plan.finishReason).toBe('stop');
  });

  it('uses scripted usage when given', () => {
    const plan = planTurn({ text: 'x', usage: { inputTokens: 10, outputTokens: 3 } }, [], ids());
    expect(plan.usage).toEqual({ inputTokens: 10, outputTokens: 3, totalTokens: 13 });
  });
});

describe('planTurn call ids', () => {
  it('skips generated ids the conversation already holds (a restarted model on a restored chat)', () => {
    let n = 0;
    const messages = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
    ];

    const plan = planTurn(
      {
        toolCalls: [
          { name: 'f', arguments: {} },
          { name: 'g', arguments: {} },
        ],
      },
      messages,
      () => `call_${++n}`,
    );

    expect(plan.toolCalls.map((c) => c.id)).toEqual(['call_2', 'call_3']);
  });
});
