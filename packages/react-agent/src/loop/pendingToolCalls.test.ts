import { assistantMsg, createMsg, userMsg } from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import { pendingToolCalls } from './pendingToolCalls.js';

const call = (id: string) => ({ type: 'tool_use' as const, id, name: 'f', input: {} });
const result = (id: string) =>
  createMsg({
    name: 'a',
    role: 'tool',
    content: [{ type: 'tool_result', id, name: 'f', output: 'ok' }],
  });

describe('pendingToolCalls', () => {
  it('lists the calls of the last tool-calling reply that have no result', () => {
    const reply = createMsg({
      name: 'a',
      role: 'assistant',
      content: [call('1'), call('2'), call('3')],
      metadata: { invalidToolArguments: { '3': '{oops' } },
    });

    const pending = pendingToolCalls([userMsg('go'), reply, result('2')]);

    expect(pending.calls.map((c) => c.id)).toEqual(['1', '3']);
    expect(pending.invalidArguments).toEqual({ '3': '{oops' });
  });

  it('is empty when every call has its result or the last reply calls no tool', () => {
    const reply = assistantMsg([call('1')]);
    expect(pendingToolCalls([userMsg('go'), reply, result('1')]).calls).toEqual([]);
    expect(pendingToolCalls([reply, result('1'), assistantMsg('done')]).calls).toEqual([]);
    expect(pendingToolCalls([userMsg('go')]).calls).toEqual([]);
    expect(pendingToolCalls([]).calls).toEqual([]);
  });
});
