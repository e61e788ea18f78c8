import { describe, expect, it } from 'vitest';
import { assistantMsg } from '../message/msg.js';
import { isGenerateReason, replyMetadata } from './replyMetadata.js';

describe('replyMetadata', () => {
  it('reads the framework metadata of a reply, typed', () => {
    const call = { type: 'tool_use' as const, id: 'c1', name: 'pay', input: { amount: 5 } };
    const msg = assistantMsg('x', {
      metadata: {
        generateReason: 'approval_required',
        usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
        stats: { iterations: 1, modelCalls: 1, toolCalls: 0, elapsedMs: 4 },
        pendingToolCalls: [call],
        approvalRequired: ['c1'],
        emptyAnswer: false,
        finishGuard: { pass: true },
        custom: 'kept out',
      },
    });

    expect(replyMetadata(msg)).toEqual({
      generateReason: 'approval_required',
      usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
      stats: { iterations: 1, modelCalls: 1, toolCalls: 0, elapsedMs: 4 },
      pendingToolCalls: [call],
      approvalRequired: ['c1'],
      emptyAnswer: false,
      finishGuard: { pass: true },
    });
  });

  it('leaves out fields whose shape is wrong', () => {
    const msg = assistantMsg('x', {
      metadata: {
        generateReason: 'because',
        usage: { inputTokens: '1' },
        stats: { iterations: 1 },
        interrupted: 'yes',
        pendingToolCalls: [{ type: 'text', text: 'no' }],
        approvalRequired: [1],
      },
    });

    expect(replyMetadata(msg)).toEqual({});
  });
});

describe('isGenerateReason', () => {
  it.each(['stop', 'approval_required', 'tool_failures', 'handoff', 'interrupted'])(
    'accepts %s',
    (reason) => expect(isGenerateReason(reason)).toBe(true),
  );

  it('rejects anything else', () => {
    expect(isGenerateReason('done')).toBe(false);
    expect(isGenerateReason(undefined)).toBe(false);
  });
});
