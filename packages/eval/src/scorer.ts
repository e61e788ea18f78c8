import type { Msg } from '@rxagent/core';
import type { EvalCase } from './evalCase.js';
import type { TraceEntry } from './trace/traceEntry.js';

/** A score between 0 and 1 (a case passes a scorer at 1), and why. */
export interface Score {
  readonly score: number;
  readonly reason?: string;
}

/** A scorer as a function: the case, the agent's reply and the run's trace → a score. */
export type ScoreFn = (
  testCase: EvalCase,
  reply: Msg,
  trace: readonly TraceEntry[],
) => Score | Promise<Score>;

/** A named scorer (what the built-in scorers return). */
export interface Scorer {
  readonly name: string;
  readonly score: ScoreFn;
}

/** A scorer as `evaluate` takes it: named, or a function named by its `name`. */
export type ScorerLike = Scorer | ScoreFn;

/** The scorers of an eval by name; throws `TypeError` for a duplicate or missing name. */
export function namedScorers(
  scorers: readonly ScorerLike[] | Readonly<Record<string, ScorerLike>>,
): Map<string, ScoreFn> {
  const named = new Map<string, ScoreFn>();
  const add = (name: string, scorer: ScorerLike) => {
    if (named.has(name)) {
      throw new TypeError(`evaluate: two scorers are named "${name}"; give each its own name.`);
    }
    named.set(name, typeof scorer === 'function' ? scorer : scorer.score.bind(scorer));
  };
  if (Array.isArray(scorers)) {
    scorers.forEach((scorer: ScorerLike, index) => {
      const name = typeof scorer === 'function' ? scorer.name : scorer?.name;
      if (typeof scorer !== 'function' && typeof scorer?.score !== 'function') {
        throw new TypeError(
          `evaluate: scorers[${index}] is neither a function nor a { name, score } scorer.`,
        );
      }
      add(name || `scorer${index + 1}`, scorer);
    });
  } else {
    for (const [name, scorer] of Object.entries(scorers as Record<string, ScorerLike>))
      add(name, scorer);
  }
  if (named.size === 0) throw new TypeError('evaluate: give at least one scorer.');
  return named;
}

/** `score` checked: a finite number in [0, 1], else a `TypeError` naming the scorer. */
export function checkedScore(name: string, result: unknown): Score {
  const score = (result as Partial<Score> | null)?.score;
  if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 1) {
    throw new TypeError(
      `scorer "${name}" returned ${JSON.stringify(result)}; a scorer returns { score } with a score between 0 and 1.`,
    );
  }
  const reason = (result as Score).reason;
  return reason === undefined ? { score } : { score, reason: String(reason) };
}
