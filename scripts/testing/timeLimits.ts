import { availableParallelism, loadavg } from 'node:os';

/**
 * How much slower than an idle machine this one is likely to run a test's child processes:
 * the one-minute load average per core (at least 1, at most 4), times `RXAGENT_TEST_TIME_SCALE`
 * when set (a number ≥ 1, for a slow CI runner). Read once per call: a test computes its
 * limits when it starts.
 */
export function timeScale(
  env: NodeJS.ProcessEnv = process.env,
  load: number = loadavg()[0] ?? 0,
  cores: number = availableParallelism(),
): number {
  const busy = Math.min(4, Math.max(1, load / Math.max(1, cores)));
  const raw = env['RXAGENT_TEST_TIME_SCALE'];
  const factor = raw === undefined || raw === '' ? 1 : Number(raw);
  if (!Number.isFinite(factor) || factor < 1) {
    throw new TypeError(
      `RXAGENT_TEST_TIME_SCALE must be a number ≥ 1 (a multiplier of test time limits), got "${raw}".`,
    );
  }
  return busy * factor;
}

/** `ms` stretched by `timeScale()`, rounded to a whole millisecond. */
export function scaled(ms: number, scale: number = timeScale()): number {
  return Math.round(ms * scale);
}

/**
 * The time limit of a test that runs `tasks` jobs of at most `perTaskMs` each, `concurrency`
 * at a time (so in `ceil(tasks / concurrency)` waves), plus `overheadMs` for its own setup.
 */
export function batchTimeLimit(
  tasks: number,
  concurrency: number,
  perTaskMs: number,
  overheadMs = 30_000,
): number {
  return Math.ceil(tasks / Math.max(1, concurrency)) * perTaskMs + overheadMs;
}
