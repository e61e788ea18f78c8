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

/** The report's aggregate fields from its runs (one pass over them per scorer, one for the rest). */
export function summarize(
  cases: readonly CaseResult[],
  scorerNames: readonly string[],
): Pick<EvalReport, 'scorers' | 'latency' | 'tokens' | 'score' | 'passRate' | 'errors'> {
  const count = cases.length;
  const scorers: Record<string, ScorerSummary> = {};
  for (const name of scorerNames) {
    let sum = 0;
    let ones = 0;
    for (const result of cases) {
      const score = result.scores[name]?.score ?? 0;
      sum += score;
      if (score === 1) ones++;
    }
    scorers[name] = {
      mean: count === 0 ? 0 : sum / count,
      passRate: count === 0 ? 0 : ones / count,
    };
  }
  const latencies = new Array<number>(count);
  const tokens: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  let latencySum = 0;
  let passed = 0;
  let errors = 0;
  for (let i = 0; i < count; i++) {
    const result = cases[i]!;
    latencies[i] = result.latencyMs;
    latencySum += result.latencyMs;
    tokens.inputTokens += result.usage.inputTokens;
    tokens.outputTokens += result.usage.outputTokens;
    tokens.totalTokens += result.usage.totalTokens;
    if (result.passed) passed++;
    if (result.reply === undefined) errors++;
  }
  // Sorted once for both percentiles and the maximum.
  latencies.sort((a, b) => a - b);
  return {
    scorers,
    latency: {
      p50: count === 0 ? 0 : ofSorted(latencies, 50),
      p95: count === 0 ? 0 : ofSorted(latencies, 95),
      mean: count === 0 ? 0 : latencySum / count,
      max: count === 0 ? 0 : latencies[count - 1]!,
    },
    tokens,
    score: mean(Object.values(scorers).map((summary) => summary.mean)),
    passRate: count === 0 ? 0 : passed / count,
    errors,
  };
}
