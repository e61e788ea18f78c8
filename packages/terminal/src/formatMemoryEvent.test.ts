import type { AgentBase, AgentEvent } from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import { formatEvent } from './formatEvent.js';
import { initialRenderState } from './renderState.js';

const agent = { name: 'desk' } as unknown as AgentBase;

describe('formatEvent: long-term memory', () => {
  it('shows what static recall found and what the observer wrote', () => {
    const recall: AgentEvent = {
      type: 'memoryRecall',
      agent,
      namespace: ['users', 'ada'],
      query: 'tea',
      items: [
        { key: 'fact-1', score: 2.414 },
        { key: 'fact-2', score: 1 },
      ],
      workingMemory: true,
      ms: 3.6,
      source: 'static',
    };
    const write: AgentEvent = {
      type: 'memoryWrite',
      agent,
      namespace: ['users', 'ada'],
      keys: ['fact-3'],
      source: 'observer',
      phase: 'written',
      ms: 9.2,
    };
    const failed: AgentEvent = { ...write, keys: [], error: 'store down' };
    expect(formatEvent(recall, initialRenderState(), 0).text).toContain(
      '⌕ memory: 2 recalled (best 2.41) · 4 ms',
    );
    expect(formatEvent(write, initialRenderState(), 0).text).toContain(
      '✎ memory: 1 written by observer · 9 ms',
    );
    expect(formatEvent(failed, initialRenderState(), 0).text).toContain('failed: store down');
  });
});
