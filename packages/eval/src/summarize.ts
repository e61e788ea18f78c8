import type { Usage } from '@rxagent/core';
import type { CaseResult, EvalReport, ScorerSummary } from './evalReport.js';

/**
 * The `p`-th percentile (0–100) of `values` by linear interpolation between the closest
 * ranks (the method of NumPy's default and of spreadsheets' PERCENTILE.INC); 0 for none.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  return ofSorted(
    [...values].sort((a, b) => a - b),
    p,
  );
}

/** `percentile` of values already sorted ascending (not empty). */
function ofSorted(sorted: readonly number[], p: number): number {
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

const mean = (values: readonly number[]) =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;

/** The report's aggregate fields from its runs. */
export function summarize(
  cases: readonly CaseResult[],
  scorerNames: readonly string[],
): Pick<EvalReport, 'scorers' | 'latency' | 'tokens' | 'score' | 'passRate' | 'errors'> {
  const scorers: Record<string, ScorerSummary> = {};
  for (const name of scorerNames) {
    const scores = cases.map((result) => result.scores[name]?.score ?? 0);
    scorers[name] = {
      mean: mean(scores),
      passRate: mean(scores.map((score) => (score === 1 ? 1 : 0))),
    };
  }
  const latencies = cases.map((result) => result.latencyMs);
  // Sorted once for both percentiles.
  const sorted = latencies.length === 0 ? [] : [...latencies].sort((a, b) => a - b);
  const tokens: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  for (const { usage } of cases) {
    tokens.inputTokens += usage.inputTokens;
    tokens.outputTokens += usage.outputTokens;
    tokens.totalTokens += usage.totalTokens;
  }
  return {
    scorers,
    latency: {
      p50: sorted.length === 0 ? 0 : ofSorted(sorted, 50),
      p95: sorted.length === 0 ? 0 : ofSorted(sorted, 95),
      mean: mean(latencies),
      max: latencies.length === 0 ? 0 : Math.max(...latencies),
    },
    tokens,
    score: mean(Object.values(scorers).map((summary) => summary.mean)),
    passRate: mean(cases.map((result) => (result.passed ? 1 : 0))),
    errors: cases.filter((result) => result.reply === undefined).length,
  };
}
