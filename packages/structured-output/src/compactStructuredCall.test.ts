import { assistantMsg, createMsg, type Msg, type ToolResultBlock, userMsg } from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import {
  acceptedThinking,
  compactStructuredCall,
  responseCallIds,
} from './compactStructuredCall.js';
import { reminderMsg } from './structuredOutputReminder.js';

function calls(...uses: Array<[id: string, name: string]>): Msg {
  return assistantMsg(
    uses.map(([id, name]) => ({ type: 'tool_use' as const, id, name, input: {} })),
    { name: 'bot' },
  );
}

function result(id: string, name: string, isError = false): Msg {
  const block: ToolResultBlock = {
    type: 'tool_result',
    id,
    name,
    output: 'out',
    ...(isError && { isError }),
  };
  return createMsg({ name: 'bot', role: 'tool', content: [block] });
}

function shape(messages: readonly Msg[]): string[] {
  return messages.map(
    (msg) =>
      `${msg.role}:${msg.content.map((b) => (b.type === 'text' ? b.text : 'id' in b ? `${b.type}(${b.id})` : b.type)).join('|')}`,
  );
}

const none = new Set<string>();

describe('compactStructuredCall', () => {
  it('drops reminders, drafts and generate_response call/result pairs, then appends the response', () => {
    const question = userMsg('Who?');
    const draft = assistantMsg('Ada, 36.', { name: 'bot' });
    const reminder = reminderMsg();
    const answer = assistantMsg('{"name":"Ada"}', { name: 'bot' });
    const messages = [
      question,
      draft,
      reminder,
      calls(['g1', 'generate_response']),
      result('g1', 'generate_response', true),
      calls(['g2', 'generate_response']),
      result('g2', 'generate_response'),
    ];

    const compacted = compactStructuredCall(
      messages,
      {
        reminderIds: new Set([reminder.id]),
        draftIds: new Set([draft.id]),
        callIds: new Set(['g1', 'g2']),
      },
      answer,
    );

    expect(compacted).toEqual([question, answer]);
  });

  it('keeps the other tool calls of a turn and their results, so every call keeps its result', () => {
    const turn = assistantMsg(
      [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'w1', name: 'weather', input: { city: 'Paris' } },
        { type: 'tool_use', id: 'g1', name: 'generate_response', input: {} },
      ],
      { name: 'bot' },
    );
    const messages = [
      userMsg('Weather?'),
      turn,
      result('w1', 'weather'),
      result('g1', 'generate_response'),
    ];

    const compacted = compactStructuredCall(messages, {
      reminderIds: none,
      draftIds: none,
      callIds: new Set(['g1']),
    });

    expect(shape(compacted)).toEqual([
      'user:Weather?',
      'assistant:Checking.|tool_use(w1)',
      'tool:tool_result(w1)',
    ]);
    expect(compacted[1]?.id).toBe(turn.id);
  });

  it('leaves messages without artefacts as the same objects and does not change its input', () => {
    const messages = [userMsg('a'), calls(['w1', 'weather']), result('w1', 'weather')];
    const before = structuredClone(messages);

    const compacted = compactStructuredCall(messages, {
      reminderIds: none,
      draftIds: none,
      callIds: new Set(['x']),
    });

    expect(compacted).toEqual(messages);
    compacted.forEach((msg, index) => {
      expect(msg).toBe(messages[index]);
    });
    expect(messages).toEqual(before);
  });
});

describe('responseCallIds', () => {
  it('finds generate_response calls of new messages, and results answering an older pending call', () => {
    const old = calls(['g0', 'generate_response'], ['w0', 'weather']);
    const messages = [
      calls(['g_before', 'generate_response']),
      result('g_before', 'generate_response'),
      old,
      result('g0', 'generate_response'),
      result('w0', 'weather'),
      calls(['g1', 'generate_response'], ['w1', 'weather']),
    ];
    const preexisting = new Set(messages.slice(0, 3).map((msg) => msg.id));

    expect([...responseCallIds(messages, preexisting)]).toEqual(['g0', 'g1']);
  });
});

describe('acceptedThinking', () => {
  const thinking = { type: 'thinking', thinking: 'because' } as const;
  const use = (id: string, name = 'generate_response') =>
    ({ type: 'tool_use', id, name, input: {} }) as const;

  it('returns the thinking of the dropped message that made the accepted call', () => {
    const msgs = [
      assistantMsg([{ type: 'thinking', thinking: 'old' }, use('g1')], { name: 'bot' }),
      result('g1', 'generate_response', true),
      assistantMsg([thinking, use('g2')], { name: 'bot' }),
      result('g2', 'generate_response'),
    ];
    expect(acceptedThinking(msgs, 'g2', new Set(['g1', 'g2']))).toEqual([thinking]);
  });

  it('returns nothing when the message stays because it also called another tool', () => {
    const msgs = [assistantMsg([thinking, use('t1', 'search'), use('g1')], { name: 'bot' })];
    expect(acceptedThinking(msgs, 'g1', new Set(['g1']))).toEqual([]);
  });
});
