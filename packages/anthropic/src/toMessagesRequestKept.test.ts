import {
  type ChatMessage,
  type ContentBlock,
  createMsg,
  formatMessages,
  type Msg,
  type Role,
} from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import { type MessagesRequestSettings, toMessagesRequest } from './toMessagesRequest.js';

const cached: MessagesRequestSettings = { model: 'claude-test', maxTokens: 1000, cache: true };

/** A conversation of tool rounds, with images, signed thinking and another agent's turns. */
function history(seed: number, length: number): Msg[] {
  let state = seed;
  const next = (): number => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const msgs: Msg[] = [createMsg({ name: 'user', role: 'user', content: 'Start.' })];
  for (let i = 0; i < length; i++) {
    const role: Role = next() < 0.6 ? 'assistant' : next() < 0.5 ? 'tool' : 'user';
    const content: ContentBlock[] = [];
    if (role === 'assistant') {
      if (next() < 0.4) content.push({ type: 'thinking', thinking: `t${i}`, signature: `s${i}` });
      if (next() < 0.6) content.push({ type: 'text', text: `answer ${i}` });
      if (next() < 0.7)
        content.push({ type: 'tool_use', id: `c${i}`, name: 'f', input: { at: i, deep: [{ i }] } });
    } else if (role === 'tool') {
      content.push({ type: 'tool_result', id: `c${i - 1}`, name: 'f', output: `r${i}` });
    } else {
      content.push({ type: 'text', text: `more ${i}` });
      if (next() < 0.3) content.push({ type: 'image', url: 'data:image/png;base64,QUFB' });
    }
    const name = role === 'assistant' && next() < 0.2 ? 'helper' : role === 'user' ? 'user' : 'me';
    msgs.push(createMsg({ name, role, content, metadata: { model: 'claude-test' } }));
  }
  return msgs;
}

const format = (msgs: Msg[]): ChatMessage[] =>
  formatMessages(msgs, { systemPrompt: 'Sys.', selfName: 'me', model: 'claude-test' });

describe("toMessagesRequest keeps the blocks of the formatter's messages", () => {
  it('gives the same request as for messages made anew, for growing conversations', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const msgs = history(seed, 3 + (seed % 20));
      for (let end = 1; end <= msgs.length; end++) {
        const chat = format(msgs.slice(0, end));
        if (!chat.some((m) => m.role !== 'system')) continue;
        // A structured clone is not frozen: its blocks are made for this request only.
        const fresh = toMessagesRequest({ messages: structuredClone(chat) }, cached);
        const kept = toMessagesRequest({ messages: chat }, cached);
        expect(JSON.stringify(kept), `seed ${seed} end ${end}`).toBe(JSON.stringify(fresh));
      }
    }
  });

  it('shares the blocks of messages sent before, and no request changes another', () => {
    const msgs = history(7, 30);
    const first = toMessagesRequest({ messages: format(msgs.slice(0, 20)) }, cached);
    const firstJson = JSON.stringify(first);
    const second = toMessagesRequest({ messages: format(msgs) }, cached);
    // The breakpoints of the second request went on copies: the first is unchanged.
    expect(JSON.stringify(first)).toBe(firstJson);
    const blocks = (body: typeof first) => body.messages.flatMap((m) => m.content as object[]);
    const before = new Set(blocks(first));
    const shared = blocks(second).filter((block) => before.has(block));
    // Every block of the first request but its two marked ones is in the second as is.
    const marked = blocks(first).filter((block) => 'cache_control' in block).length;
    expect(shared.length).toBeGreaterThanOrEqual(blocks(first).length - marked - 2);
    for (const block of shared) expect(Object.isFrozen(block)).toBe(true);
    expect(() => {
      (shared[0] as { type: string }).type = 'changed';
    }).toThrow(TypeError);
  });

  it('makes the blocks of a message that is not frozen anew, as it may have changed', () => {
    const message: ChatMessage = { role: 'user', content: 'before' };
    const first = toMessagesRequest({ messages: [message] }, cached);
    message.content = 'after';
    const second = toMessagesRequest({ messages: [message] }, cached);
    expect(first.messages[0]!.content).toEqual([
      { type: 'text', text: 'before', cache_control: { type: 'ephemeral' } },
    ]);
    expect(second.messages[0]!.content).toEqual([
      { type: 'text', text: 'after', cache_control: { type: 'ephemeral' } },
    ]);
  });
});
