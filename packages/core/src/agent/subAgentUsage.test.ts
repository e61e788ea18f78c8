import { describe, expect, it } from 'vitest';
import { assistantMsg } from '../message/msg.js';
import { usageByAgent } from '../model/usageByAgent.js';
import { subAgentBudget, usageReportOf } from './subAgentUsage.js';

const usage = (inputTokens: number, outputTokens: number) => ({
  inputTokens,
  outputTokens,
  totalTokens: inputTokens + outputTokens,
});

describe('subAgentBudget', () => {
  it("is the caller's remaining budget, each limit tightened by the sub-agent's own", () => {
    const price = { inputPerMillion: 1, outputPerMillion: 2 };
    const other = { inputPerMillion: 3, outputPerMillion: 4 };
    expect(
      subAgentBudget(
        { maxTokens: 500, maxCostUsd: 1, pricing: { a: price } },
        { maxTokens: 100, pricing: { b: other } },
      ),
    ).toEqual({ maxTokens: 100, maxCostUsd: 1, pricing: { a: price, b: other } });
    expect(subAgentBudget({ maxTokens: 50 }, { maxTokens: 100, maxCostUsd: 2 })).toEqual({
      maxTokens: 50,
      maxCostUsd: 2,
    });
  });

  it('is undefined when the caller has no budget (the sub-agent keeps its own)', () => {
    expect(subAgentBudget(undefined, { maxTokens: 100 })).toBeUndefined();
  });
});

describe('usageReportOf and usageByAgent', () => {
  it("reads a sub-agent reply's usage, usageByAgent and costUsd", () => {
    const reply = assistantMsg('hi', {
      metadata: {
        usage: usage(3, 1),
        usageByAgent: { a: usage(2, 1), b: usage(1, 0) },
        costUsd: 0.5,
      },
    });
    expect(usageReportOf('a', reply)).toEqual({
      agent: 'a',
      usage: usage(3, 1),
      usageByAgent: { a: usage(2, 1), b: usage(1, 0) },
      costUsd: 0.5,
    });
    expect(usageReportOf('a', assistantMsg('no usage'))).toEqual({ agent: 'a' });
  });

  it('sums the own usage into an entry of the same name', () => {
    expect(usageByAgent('top', usage(10, 5), { top: usage(1, 1), sub: usage(2, 2) })).toEqual({
      top: usage(11, 6),
      sub: usage(2, 2),
    });
    expect(usageByAgent('top', usage(10, 5), undefined)).toBeUndefined();
  });
});
