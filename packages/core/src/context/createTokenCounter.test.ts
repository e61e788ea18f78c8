import { describe, expect, it } from 'vitest';
import { assistantMsg, createMsg, userMsg } from '../message/msg.js';
import type { ToolSchema } from '../model/chatModel.js';
import { formatMessages } from '../model/formatMessages.js';
import type { ContextRequest } from './contextRequest.js';
import { createTokenCounter } from './createTokenCounter.js';
import { estimateTokens } from './estimateTokens.js';

const words = createTokenCounter((text) => (text === '' ? 0 : text.split(/\s+/).length));

const tool: ToolSchema = {
  type: 'function',
  function: { name: 'lookup', description: 'find it', parameters: { type: 'object' } },
};

describe('createTokenCounter', () => {
  it("counts OpenAI's overhead: 3 per message plus role and content, 1 per name, 3 to prime the reply", () => {
    const request: ContextRequest = {
      systemPrompt: 'be brief',
      messages: [userMsg('hello there'), userMsg('note', { name: 'system' })],
      tools: [],
    };
    // system: 3 + 1 + 2; user: 3 + 1 + 2; named user: 3 + 1 + 1 + (1 + 1); priming: 3.
    expect(words(request)).toBe(6 + 6 + 7 + 3);
  });

  it('counts tool calls, tool results and tool schemas on their wire form', () => {
    const call = { type: 'tool_use', id: 'c1', name: 'lookup', input: { q: 'x' } } as const;
    const request: ContextRequest = {
      systemPrompt: '',
      messages: [
        assistantMsg([call]),
        createMsg({
          name: 'bot',
          role: 'tool',
          content: [{ type: 'tool_result', id: 'c1', name: 'lookup', output: 'found it' }],
        }),
      ],
      tools: [tool],
    };
    // assistant: 3 + 1 + 0 + (3 + 1 + 1); tool: 3 + 1 + 2 + 1; schema: 8 + 1 + 2 + 1; priming 3.
    expect(words(request)).toBe(9 + 7 + 12 + 3);
  });

  it("formats with the request's formatter and name", () => {
    const seen: unknown[] = [];
    const counter = createTokenCounter(() => 1);
    counter({
      systemPrompt: 'sys',
      messages: [userMsg('a')],
      tools: [],
      selfName: 'bot',
      formatter: (msgs, options) => {
        seen.push(msgs.length, options);
        return [];
      },
    });
    expect(seen).toEqual([1, { systemPrompt: 'sys', selfName: 'bot' }]);
  });
});

describe('estimateTokens', () => {
  it('counts the reasoning sent back to the model that produced it, and only to it', () => {
    const reasoned = createMsg({
      name: 'assistant',
      role: 'assistant',
      content: [
        {
          type: 'thinking',
          thinking: 'one two three four',
          provider: { reasoningField: 'reasoning_content' },
        },
        { type: 'text', text: 'done' },
      ],
      metadata: { model: 'ds' },
    });
    const request = (model?: string): ContextRequest => ({
      systemPrompt: '',
      messages: [userMsg('go'), reasoned],
      tools: [],
      ...(model !== undefined && { model }),
    });
    const counter = createTokenCounter((text) => (text === '' ? 0 : text.split(/\s+/).length));
    const without = counter(request());
    expect(counter(request('ds'))).toBe(without + 4);
    expect(counter(request('other'))).toBe(without);
  });

  it('counts about four characters a token, rounded up', () => {
    const request = { systemPrompt: '', messages: [userMsg('x'.repeat(400))], tools: [] };
    // 3 + "user"/4 + 400/4 + 3 priming.
    expect(estimateTokens(request)).toBe(Math.ceil(3 + 1 + 100 + 3));
  });

  it('counts each Msg once and gives what counting the formatted request gives, whatever the history', () => {
    const formatted = (request: ContextRequest) =>
      estimateTokens({ ...request, formatter: (msgs, options) => formatMessages(msgs, options) });
    const use = (id: string) => ({
      type: 'tool_use' as const,
      id,
      name: 'lookup',
      input: { q: id },
    });
    const result = (id: string) => ({
      type: 'tool_result' as const,
      id,
      name: 'lookup',
      output: `result of ${id}`,
    });
    const history = [
      userMsg('question'),
      createMsg({ name: 'me', role: 'assistant', content: [use('a'), use('b')] }),
      createMsg({ name: 'me', role: 'tool', content: [result('a')] }),
      createMsg({ name: 'user', role: 'user', content: [result('b'), result('orphan')] }),
      createMsg({ name: 'me', role: 'assistant', content: [use('c'), result('c'), result('a')] }),
      createMsg({
        name: 'other',
        role: 'assistant',
        content: [{ type: 'text', text: 'hi' }, use('d')],
      }),
      createMsg({ name: 'me', role: 'tool', content: [result('d')] }),
      createMsg({ name: 'system', role: 'system', content: [result('c')] }),
      userMsg('', { name: 'user' }),
      createMsg({
        name: 'bob',
        role: 'user',
        content: [{ type: 'image', url: 'https://x/y.png' }],
      }),
    ];
    for (let end = 0; end <= history.length; end++) {
      for (const selfName of [undefined, 'me', 'other']) {
        const request: ContextRequest = {
          systemPrompt: end % 2 === 0 ? 'be brief' : '',
          messages: history.slice(0, end),
          tools: [tool],
          ...(selfName !== undefined && { selfName }),
        };
        expect(estimateTokens(request), `${end} messages, selfName ${selfName}`).toBe(
          formatted(request),
        );
      }
    }
    // A compaction replaces the oldest messages: nothing counted before is reused wrongly.
    const compacted = {
      systemPrompt: '',
      messages: [userMsg('summary'), ...history.slice(3)],
      tools: [],
    };
    expect(estimateTokens(compacted)).toBe(formatted(compacted));
  });
});
