import { checkOptions, textOf } from '@rxagent/core';
import type { Scorer } from '../scorer.js';
import { expectedTexts, normalise } from './expectedText.js';

/** Options of `exactMatch` and `includes`. */
export interface TextScorerOptions {
  /** Compare letters' case too (default false). Whitespace is always trimmed and collapsed. */
  readonly caseSensitive?: boolean;
}

/**
 * Scores 1 when the reply's text equals the case's `expected` (or one of them, for an
 * array), after trimming and collapsing whitespace, case-insensitively unless
 * `caseSensitive`; else 0. A case without `expected` scores 0 with a reason saying so.
 */
export function exactMatch(options: TextScorerOptions = {}): Scorer {
  checkOptions(options, ['caseSensitive'], 'exactMatch');
  const caseSensitive = options.caseSensitive ?? false;
  return {
    name: 'exactMatch',
    score: (testCase, reply) => {
      const expected = expectedTexts(testCase.expected);
      if (expected === undefined) return { score: 0, reason: 'the case has no expected value' };
      const text = normalise(textOf(reply), caseSensitive);
      const hit = expected.some((candidate) => normalise(candidate, caseSensitive) === text);
      return hit
        ? { score: 1, reason: 'the reply equals the expected text' }
        : { score: 0, reason: `expected ${JSON.stringify(expected.join(' | '))}` };
    },
  };
}
