import { checkOptions, textOf } from '@rxagent/core';
import type { Scorer } from '../scorer.js';
import type { TextScorerOptions } from './exactMatch.js';
import { expectedTexts, normalise } from './expectedText.js';

/**
 * Scores how many of the case's `expected` texts (a string, or an array of strings) the
 * reply's text contains: 1 (a pass) when it contains them all, else the fraction found,
 * with the missing ones as the reason. Case-insensitive unless `caseSensitive`; whitespace
 * is collapsed on both sides. A case without `expected` scores 0.
 */
export function includes(options: TextScorerOptions = {}): Scorer {
  checkOptions(options, ['caseSensitive'], 'includes');
  const caseSensitive = options.caseSensitive ?? false;
  return {
    name: 'includes',
    score: (testCase, reply) => {
      const expected = expectedTexts(testCase.expected);
      if (expected === undefined || expected.length === 0) {
        return { score: 0, reason: 'the case has no expected value' };
      }
      const text = normalise(textOf(reply), caseSensitive);
      const missing = expected.filter((part) => !text.includes(normalise(part, caseSensitive)));
      const score = (expected.length - missing.length) / expected.length;
      return missing.length === 0
        ? { score, reason: 'the reply contains every expected text' }
        : { score, reason: `missing ${missing.map((part) => JSON.stringify(part)).join(', ')}` };
    },
  };
}
