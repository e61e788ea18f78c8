import { describe, expect, it } from 'vitest';
import type { ContentBlock } from '../message/contentBlock.js';
import { assistantMsg, createMsg, systemMsg, userMsg } from '../message/msg.js';
import type { ChatMessage } from './chatMessage.js';
import { formatMessages, sanitizeName } from './formatMessages.js';

const toolUse = (id: string, name: string, input = {}): ContentBlock => ({
  type: 'tool_use',
  id,
  name,
  input,
});
const toolResultMsg = (results: ContentBlock[]) =>
  createMsg({ name: 'assistant', role: 'tool', content: results });

describe('formatMessages', () => {
  it('prepends a non-empty system prompt and omits an empty one', () => {
    expect(formatMessages([userMsg('hi')], { systemPrompt: 'Be brief.' })).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
    ]);
    expect(formatMessages([userMsg('hi')], { systemPrompt: '' })).toEqual([
      { role: 'user', content: 'hi' },
    ]);
  });

  it('maps a system Msg to a system message with its text', () => {
    expect(formatMessages([systemMsg('Rules.')])).toEqual([{ role: 'system', content: 'Rules.' }]);
  });

  it('joins user text blocks with newlines and sends no name for "user"', () => {
    const msg = createMsg({
      name: 'user',
      role: 'user',
      content: [
        { type: 'text', text: 'line one' },
        { type: 'text', text: 'line two' },
      ],
    });
    expect(formatMessages([msg])).toEqual([{ role: 'user', content: 'line one\nline two' }]);
  });

  it('sends user content as parts in block order when it holds images', () => {
    const msg = createMsg({
      name: 'user',
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image', url: 'data:image/png;base64,AAAA' },
        { type: 'text', text: 'Be precise.' },
      ],
    });
    expect(formatMessages([msg])).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          { type: 'text', text: 'Be precise.' },
        ],
      },
    ]);
  });

  it('sends judge and reminder feedback as a user message named "system"', () => {
    const feedback = userMsg('[Judge feedback] You did not answer the second question.', {
      name: 'system',
      metadata: { judgeFeedback: true },
    });
    expect(formatMessages([userMsg('Two questions'), feedback])).toEqual([
      { role: 'user', content: 'Two questions' },
      {
        role: 'user',
        name: 'system',
        content: '[Judge feedback] You did not answer the second question.',
      },
    ]);
  });

  it('sends the sanitised name of a user Msg not named "user"', () => {
    expect(formatMessages([userMsg('hello', { name: 'Ana María' })])).toEqual([
      { role: 'user', name: 'Ana_Mar_a', content: 'hello' },
    ]);
  });

  it('turns tool_use blocks into tool_calls with JSON arguments and drops thinking', () => {
    const msg = assistantMsg([
      { type: 'thinking', thinking: 'I should look it up.' },
      { type: 'text', text: 'Checking.' },
      toolUse('call_1', 'weather', { city: 'Oslo', days: 2 }),
    ]);
    expect(formatMessages([msg])).toEqual([
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'weather', arguments: '{"city":"Oslo","days":2}' },
          },
        ],
      },
    ]);
  });

  describe('reasoning sent back', () => {
    const reasoned = (model: string | undefined, name = 'assistant') =>
      createMsg({
        name,
        role: 'assistant',
        content: [
          {
            type: 'thinking',
            thinking: 'Look it up.',
            signature: 'c2ln',
            provider: {
              reasoningField: 'reasoning',
              reasoningDetails: [{ type: 'reasoning.text', text: 'Look it up.', index: 0 }],
            },
          },
          {
            type: 'tool_use',
            id: 'call_1',
            name: 'weather',
            input: { city: 'Oslo' },
            provider: { extraContent: { google: { thought_signature: 'c2ln' } } },
          },
        ],
        metadata: model === undefined ? {} : { model },
      });
    const bare = {
      role: 'assistant',
      content: '',
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'weather', arguments: '{"city":"Oslo"}' },
        },
      ],
    };

    it('sends the reasoning in the fields the server used, to the model that produced it', () => {
      expect(formatMessages([reasoned('m1')], { model: 'm1' })).toEqual([
        {
          ...bare,
          reasoning: 'Look it up.',
          reasoning_details: [{ type: 'reasoning.text', text: 'Look it up.', index: 0 }],
          thinking: [{ type: 'thinking', thinking: 'Look it up.', signature: 'c2ln' }],
          tool_calls: [
            { ...bare.tool_calls[0], extra_content: { google: { thought_signature: 'c2ln' } } },
          ],
        },
      ]);
    });

    it('uses reasoning_content when that field carried the text, joining two thinking blocks', () => {
      const msg = createMsg({
        name: 'assistant',
        role: 'assistant',
        content: [
          {
            type: 'thinking',
            thinking: 'One. ',
            provider: { reasoningField: 'reasoning_content' },
          },
          { type: 'thinking', thinking: 'Two.', provider: { reasoningField: 'reasoning_content' } },
          { type: 'text', text: 'Done.' },
        ],
        metadata: { model: 'ds' },
      });
      expect(formatMessages([msg], { model: 'ds' })).toEqual([
        { role: 'assistant', content: 'Done.', reasoning_content: 'One. Two.' },
      ]);
    });

    it('drops it for another model, without a model, and for a Msg that records none', () => {
      expect(formatMessages([reasoned('m1')], { model: 'm2' })).toEqual([bare]);
      expect(formatMessages([reasoned('m1')])).toEqual([bare]);
      expect(formatMessages([reasoned(undefined)], { model: 'm1' })).toEqual([bare]);
    });

    it("drops it for another agent's Msg, even one from the same model", () => {
      const heard = reasoned('m1', 'alice');
      const said = {
        ...heard,
        content: [...heard.content, { type: 'text' as const, text: 'Oslo?' }],
      };
      expect(formatMessages([said], { model: 'm1', selfName: 'bob' })).toEqual([
        { role: 'user', name: 'alice', content: 'Oslo?' },
      ]);
    });

    it('sends no reasoning field for a thinking block that recorded none (content parts)', () => {
      const msg = createMsg({
        name: 'assistant',
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Mistral thinks in parts.' },
          { type: 'text', text: 'Hi.' },
        ],
        metadata: { model: 'mistral' },
      });
      expect(formatMessages([msg], { model: 'mistral' })).toEqual([
        { role: 'assistant', content: 'Hi.' },
      ]);
    });
  });

  it('never omits assistant content and replays invalid arguments as valid JSON', () => {
    const msg = assistantMsg([toolUse('call_1', 'weather', {})], {
      metadata: { invalidToolArguments: { call_1: '{"city": Oslo' } },
    });
    const [wire] = formatMessages([msg]);
    expect(wire).toEqual({
      role: 'assistant',
      content: '',
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{}' } },
      ],
    });
  });

  it('omits tool_calls on an assistant message without tool_use blocks', () => {
    expect(formatMessages([assistantMsg('Done.')])).toEqual([
      { role: 'assistant', content: 'Done.' },
    ]);
  });

  it('round-trips a multi-tool conversation with one tool message per result in order', () => {
    const msgs = [
      userMsg('Weather and time in Oslo?'),
      assistantMsg([
        toolUse('a', 'weather', { city: 'Oslo' }),
        toolUse('b', 'time', { tz: 'CET' }),
      ]),
      toolResultMsg([
        { type: 'tool_result', id: 'a', name: 'weather', output: 'Sunny' },
        {
          type: 'tool_result',
          id: 'b',
          name: 'time',
          output: [
            { type: 'text', text: '12:00' },
            { type: 'image', url: 'https://x/clock.png' },
          ],
        },
      ]),
      assistantMsg([toolUse('c', 'weather', { city: 'Bergen' })]),
      toolResultMsg([
        { type: 'tool_result', id: 'c', name: 'weather', output: 'Error: timeout', isError: true },
      ]),
      assistantMsg('Oslo is sunny at 12:00; Bergen is unknown.'),
    ];
    const expected: ChatMessage[] = [
      { role: 'system', content: 'You help.' },
      { role: 'user', content: 'Weather and time in Oslo?' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          {
            id: 'a',
            type: 'function',
            function: { name: 'weather', arguments: '{"city":"Oslo"}' },
          },
          { id: 'b', type: 'function', function: { name: 'time', arguments: '{"tz":"CET"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: 'Sunny' },
      { role: 'tool', tool_call_id: 'b', content: '12:00\n[image]' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          {
            id: 'c',
            type: 'function',
            function: { name: 'weather', arguments: '{"city":"Bergen"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'c', content: 'Error: timeout' },
      { role: 'assistant', content: 'Oslo is sunny at 12:00; Bergen is unknown.' },
    ];
    expect(formatMessages(msgs, { systemPrompt: 'You help.', selfName: 'assistant' })).toEqual(
      expected,
    );
  });

  it("sends another agent's speech as a named user message without its tool calls", () => {
    const msgs = [
      assistantMsg([{ type: 'text', text: 'I think 42.' }, toolUse('x', 'calc', { q: 1 })], {
        name: 'Bob the Builder',
      }),
      toolResultMsg([{ type: 'tool_result', id: 'x', name: 'calc', output: '42' }]),
      assistantMsg('I agree.', { name: 'alice' }),
    ];
    expect(formatMessages(msgs, { selfName: 'alice' })).toEqual([
      { role: 'user', name: 'Bob_the_Builder', content: 'I think 42.' },
      { role: 'assistant', content: 'I agree.' },
    ]);
  });

  it("skips another agent's turn that only called tools", () => {
    const msg = assistantMsg([toolUse('x', 'calc')], { name: 'bob' });
    expect(formatMessages([msg], { selfName: 'alice' })).toEqual([]);
  });

  it("treats assistant Msgs with the factory's default name as the agent's own", () => {
    expect(formatMessages([assistantMsg('seeded answer')], { selfName: 'alice' })).toEqual([
      { role: 'assistant', content: 'seeded answer' },
    ]);
  });

  it('treats every assistant Msg as its own when no selfName is given', () => {
    expect(formatMessages([assistantMsg('hi', { name: 'bob' })])).toEqual([
      { role: 'assistant', content: 'hi' },
    ]);
  });

  it('drops tool results whose call is not in the formatted history', () => {
    const msgs = [
      userMsg('go'),
      toolResultMsg([{ type: 'tool_result', id: 'gone', name: 'calc', output: '1' }]),
    ];
    expect(formatMessages(msgs)).toEqual([{ role: 'user', content: 'go' }]);
  });

  it('sends tool results carried by a user Msg before its text, and no empty user turn', () => {
    const call = assistantMsg([toolUse('a', 'approve')]);
    const withText = createMsg({
      name: 'user',
      role: 'user',
      content: [
        { type: 'tool_result', id: 'a', name: 'approve', output: 'approved' },
        { type: 'text', text: 'Go on.' },
      ],
    });
    const onlyResult = createMsg({
      name: 'user',
      role: 'user',
      content: [{ type: 'tool_result', id: 'a', name: 'approve', output: 'approved' }],
    });
    expect(formatMessages([call, withText]).slice(1)).toEqual([
      { role: 'tool', tool_call_id: 'a', content: 'approved' },
      { role: 'user', content: 'Go on.' },
    ]);
    expect(formatMessages([call, onlyResult]).slice(1)).toEqual([
      { role: 'tool', tool_call_id: 'a', content: 'approved' },
    ]);
  });

  it('keeps an empty user turn that carries no tool results', () => {
    expect(formatMessages([userMsg('')])).toEqual([{ role: 'user', content: '' }]);
  });

  it('does not mutate the input Msgs', () => {
    const msgs = [userMsg('hi'), assistantMsg([toolUse('a', 't', { n: 1 })])];
    const before = JSON.stringify(msgs);
    formatMessages(msgs, { systemPrompt: 's' });
    expect(JSON.stringify(msgs)).toBe(before);
  });

  it('formats a long history in linear time', () => {
    const msgs = Array.from({ length: 20_000 }, (_, i) =>
      i % 2 === 0 ? userMsg(`q${i}`) : assistantMsg(`a${i}`),
    );
    const start = performance.now();
    const out = formatMessages(msgs);
    expect(out).toHaveLength(20_000);
    expect(performance.now() - start).toBeLessThan(500);
  });
});

describe('formatMessages with signed thinking', () => {
  it('sends signed and redacted thinking of its own turns back in `thinking`, in order, to the model that made them, and drops plain thinking', () => {
    const content: ContentBlock[] = [
      { type: 'thinking', thinking: 'plain' },
      { type: 'thinking', thinking: 'signed', signature: 'sig' },
      { type: 'thinking', thinking: '', provider: { redacted: 'opaque' } },
      { type: 'text', text: 'Answer.' },
    ];
    const out = formatMessages(
      [
        userMsg('q'),
        createMsg({ name: 'me', role: 'assistant', content, metadata: { model: 'claude' } }),
      ],
      { selfName: 'me', model: 'claude' },
    );
    expect(out[1]).toEqual({
      role: 'assistant',
      content: 'Answer.',
      thinking: [
        { type: 'thinking', thinking: 'signed', signature: 'sig' },
        { type: 'redacted_thinking', data: 'opaque' },
      ],
    });
    const elsewhere = formatMessages(
      [createMsg({ name: 'me', role: 'assistant', content, metadata: { model: 'claude' } })],
      { selfName: 'me', model: 'gpt' },
    );
    expect(elsewhere).toEqual([{ role: 'assistant', content: 'Answer.' }]);
  });

  it("never sends another agent's thinking", () => {
    const content: ContentBlock[] = [
      { type: 'thinking', thinking: 'signed', signature: 'sig' },
      { type: 'text', text: 'Hi.' },
    ];
    const out = formatMessages([createMsg({ name: 'other', role: 'assistant', content })], {
      selfName: 'me',
    });
    expect(out).toEqual([{ role: 'user', name: 'other', content: 'Hi.' }]);
  });
});

describe('sanitizeName', () => {
  it('replaces characters outside [A-Za-z0-9_-] and cuts to 64 characters', () => {
    expect(sanitizeName('a.b c/d-e_f')).toBe('a_b_c_d-e_f');
    expect(sanitizeName('🙂x')).toBe('_x');
    expect(sanitizeName('n'.repeat(80))).toHaveLength(64);
  });

  it('omits a name that sanitises to empty', () => {
    expect(formatMessages([userMsg('hi', { name: '' })])).toEqual([
      { role: 'user', content: 'hi' },
    ]);
  });
});
