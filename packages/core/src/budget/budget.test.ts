import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors.js';
import { budgetLeft, checkBudget } from './budget.js';

describe('checkBudget', () => {
  it('quotes a string where a number belongs, so "100" never reads as 100', () => {
    const bad = (budget: unknown) => () => checkBudget('agent "a"', budget);
    expect(bad({ maxTokens: '100' })).toThrow(InvalidArgumentError);
    expect(bad({ maxTokens: '100' })).toThrow('got "100".');
    expect(bad({ maxCostUsd: '0.5' })).toThrow('got "0.5".');
    expect(bad({ pricing: { m: { inputPerMillion: '1', outputPerMillion: 2 } } })).toThrow(
      'got "1".',
    );
    expect(bad({ maxTokens: 1.5 })).toThrow('got 1.5.');
  });
});

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
