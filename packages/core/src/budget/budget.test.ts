import { describe, expect, it } from 'vitest';
import { budgetLeft } from './budget.js';

describe('budgetLeft', () => {
  const pricing = { m: { inputPerMillion: 1, outputPerMillion: 2 } };

  it('takes what was used off each limit and keeps the prices', () => {
    expect(budgetLeft({ maxTokens: 100, maxCostUsd: 0.5, pricing }, 30, 0.2)).toEqual({
      maxTokens: 70,
      maxCostUsd: 0.3,
      pricing,
    });
  });

  it('never goes below 0, and adds no limit the budget did not have', () => {
    expect(budgetLeft({ maxTokens: 10 }, 25, 3)).toEqual({ maxTokens: 0 });
    expect(budgetLeft({ maxCostUsd: 1 }, 1_000, 2)).toEqual({ maxCostUsd: 0 });
    expect(budgetLeft({}, 5, 5)).toEqual({});
  });
});
