import { assistantMsg, userMsg } from '@rxagent/core';
import { unfrozenPath } from '@rxagent/core/testing';
import { describe, expect, it } from 'vitest';
import { decodeEvent, replyOf } from './wireEvent.js';

describe('decodeEvent', () => {
  it('freezes the Msgs an event carries, all through', () => {
    const reply = assistantMsg([
      { type: 'tool_use', id: 'c1', name: 'book', input: { trip: { cities: ['Paris'] } } },
    ]);
    const event = decodeEvent(
      JSON.stringify({ type: 'preCall', agent: 'a', input: [userMsg('hi')], systemPrompt: '' }),
    );
    expect(unfrozenPath(event, 'event')).toBeUndefined();
    const decoded = decodeEvent(JSON.stringify({ type: 'reply', msg: reply }));
    const msg = replyOf(decoded);
    expect(msg).toEqual(reply);
    expect(unfrozenPath(msg, 'reply')).toBeUndefined();
  });

  it('rejects text that is not an event object', () => {
    expect(() => decodeEvent('[1]')).toThrow(TypeError);
  });
});
