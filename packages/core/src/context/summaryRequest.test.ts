import { describe, expect, it } from 'vitest';
import { assistantMsg, createMsg, userMsg } from '../message/msg.js';
import { validateChatRequest } from '../testing/validateChatRequest.js';
import { toWireRequest } from '../testing/wireRequest.js';
import { dropMarkerMsg, summaryMsg } from './compressedMsg.js';
import { SUMMARY_PROMPT, summaryRequest, transcript } from './summaryRequest.js';

const call = { type: 'tool_use', id: 'c1', name: 'lookup', input: { q: 'x' } } as const;

describe('summaryRequest', () => {
  it('is a valid tool-less request even for a tool call whose result is not included', () => {
    const request = summaryRequest([userMsg('hi'), assistantMsg([call], { name: 'bot' })], {
      maxTokens: 100,
    });
    expect(request.tools).toBeUndefined();
    expect(request.messages[0]).toEqual({ role: 'system', content: SUMMARY_PROMPT });
    expect(request.messages).toHaveLength(2);
    expect(validateChatRequest(toWireRequest(request, 'm'))).toBeUndefined();
  });

  it('asks to keep facts, decisions, open tasks and tool results still needed', () => {
    expect(SUMMARY_PROMPT).toMatch(/facts/);
    expect(SUMMARY_PROMPT).toMatch(/decisions/);
    expect(SUMMARY_PROMPT).toMatch(/tasks still open/);
    expect(SUMMARY_PROMPT).toMatch(/tool results/);
  });
});

describe('transcript', () => {
  it('labels each text, call and result in order and leaves thinking out', () => {
    const msgs = [
      userMsg('What is x?'),
      assistantMsg(
        [{ type: 'thinking', thinking: 'secret' }, { type: 'text', text: 'Looking.' }, call],
        {
          name: 'bot',
        },
      ),
      createMsg({
        name: 'bot',
        role: 'tool',
        content: [{ type: 'tool_result', id: 'c1', name: 'lookup', output: '42', isError: true }],
      }),
      userMsg('be quick', { name: 'system' }),
    ];
    expect(transcript(msgs)).toBe(
      '[user] What is x?\n\n[assistant bot] Looking.\n\n[assistant bot calls lookup {"q":"x"}]\n\n[error from lookup] 42\n\n[user system] be quick',
    );
  });

  it('keeps the head and tail of a very long entry', () => {
    const text = transcript([userMsg(`${'a'.repeat(10_000)}${'z'.repeat(10_000)}`)]);
    expect(text.length).toBeLessThan(8_100);
    expect(text).toMatch(/^\[user\] a+\[… \d+ characters truncated …\]z+$/);
  });
});

describe('summaryMsg and dropMarkerMsg', () => {
  const info = { count: 40, tokensBefore: 12_100, tokensAfter: 3_000 };

  it('are user messages named system carrying metadata.compressed', () => {
    for (const msg of [summaryMsg(' notes ', info), dropMarkerMsg(info)]) {
      expect(msg).toMatchObject({ role: 'user', name: 'system', metadata: { compressed: info } });
    }
    expect(summaryMsg(' notes ', info).content).toEqual([
      { type: 'text', text: '[Summary of 40 earlier messages]\nnotes' },
    ]);
    expect(dropMarkerMsg({ ...info, count: 1 }).content[0]).toMatchObject({
      text: expect.stringMatching(/^\[1 earlier message was dropped/),
    });
  });
});
