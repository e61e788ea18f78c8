import { assistantMsg } from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import { runOutcomeOf } from './runOutcome.js';

// An object type (not the ToolUseBlock interface) so it is assignable to JSON metadata.
const call = (id: string, name = 'delete_file') => ({
  type: 'tool_use' as const,
  id,
  name,
  input: { path: `${id}.txt` },
});

describe('runOutcomeOf', () => {
  it('is success for a finished reply', () => {
    expect(runOutcomeOf(assistantMsg('done', { metadata: { generateReason: 'stop' } }))).toEqual({
      type: 'success',
    });
  });

  it('is cancelled for an interrupted reply', () => {
    const reply = assistantMsg('stopped', { metadata: { generateReason: 'interrupted' } });
    expect(runOutcomeOf(reply)).toEqual({ type: 'cancelled' });
  });

  it('interrupts once per call listed in approvalRequired, in that order', () => {
    const reply = assistantMsg([call('a'), call('b'), call('c')], {
      metadata: {
        generateReason: 'approval_required',
        pendingToolCalls: [call('a'), call('b'), call('c')],
        approvalRequired: ['c', 'a'],
      },
    });
    const outcome = runOutcomeOf(reply);
    expect(outcome.type === 'interrupt' && outcome.interrupts.map((i) => i.id)).toEqual(['c', 'a']);
    expect(outcome).toMatchObject({
      interrupts: [
        {
          id: 'c',
          reason: 'tool_approval',
          toolCallId: 'c',
          message: 'Allow delete_file to run with {"path":"c.txt"}?',
          metadata: { toolName: 'delete_file', input: { path: 'c.txt' } },
        },
        { id: 'a' },
      ],
    });
  });

  it('interrupts for every call of a reply a hook stopped before acting', () => {
    const reply = assistantMsg([call('a'), call('b')], {
      metadata: { generateReason: 'tool_calls_stopped' },
    });
    const outcome = runOutcomeOf(reply);
    expect(outcome.type === 'interrupt' && outcome.interrupts.map((i) => i.id)).toEqual(['a', 'b']);
  });

  it('ignores malformed approval metadata instead of failing', () => {
    const reply = assistantMsg('odd', {
      metadata: {
        generateReason: 'approval_required',
        pendingToolCalls: [null, 'x', { type: 'tool_use', id: 1 }],
        approvalRequired: [1, 'missing'],
      },
    });
    expect(runOutcomeOf(reply)).toEqual({ type: 'success' });
  });
});
