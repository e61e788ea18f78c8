import { type AgentBase, checkOptions, optionNames } from '@rxagent/core';
import type { Observable } from 'rxjs';
import { type EvalCase, loadDataset } from './evalCase.js';
import type { CaseResult, EvalReport } from './evalReport.js';
import { ProgressLine, type ProgressOut } from './progressLine.js';
import { runAll } from './runAll.js';
import { runCase } from './runCase.js';
import { namedScorers, type ScorerLike } from './scorer.js';
import { summarize } from './summarize.js';

/** What `evaluate` runs. */
export interface EvaluateOptions {
  /** The cases: an array, or the path of a JSONL file with one case per line. */
  readonly dataset: readonly EvalCase[] | string;
  /** A fresh agent for each run of a case (runs never share an agent's memory). */
  readonly agent: (testCase: EvalCase) => AgentBase;
  /** The scorers: an array (named by their `name`) or an object of scorers by name. */
  readonly scorers: readonly ScorerLike[] | Readonly<Record<string, ScorerLike>>;
  /** How many runs at once (default 1: one after another). */
  readonly concurrency?: number;
  /** How many times each case runs (default 1); every run is a row of the report. */
  readonly trials?: number;
  /** The report's name (default `"eval"`). */
  readonly name?: string;
  /**
   * Where the progress line goes, or `false` for none. Default: `process.stderr` when it is
   * a TTY. The line is drawn only on a TTY.
   */
  readonly progress?: ProgressOut | false;
  /** Aborting it cancels the runs in flight and rejects with an `AbortError`. */
  readonly signal?: AbortSignal;
  /**
   * Keep the per-chunk events (`reasoningChunk`, `actingChunk`) in each run's `trace`
   * (default false): its trace page then shows each model request's time to first chunk and
   * its chunk count. Without it the agent builds no chunk events for the run, so the runner
   * costs little more than the agent's `call()`.
   */
  readonly traceChunks?: boolean;
}

const OPTION_KEYS = optionNames<EvaluateOptions>({
  dataset: true,
  agent: true,
  scorers: true,
  concurrency: true,
  trials: true,
  name: true,
  progress: true,
  signal: true,
  traceChunks: true,
});

/**
 * Runs every case of `dataset` `trials` times on a fresh agent, at most `concurrency` at once,
 * scores each reply with every scorer and resolves with the report: each run's scores,
 * reply, usage, latency and trace (every hook event but the per-chunk ones, unless
 * `traceChunks`); per scorer the mean and the pass rate (a run passes a
 * scorer at 1); latency p50/p95; tokens. A failed agent call does not stop the evaluation:
 * its run has an `error` and scores 0. Rejects with `TypeError` or `InvalidArgumentError`
 * for bad options or a bad dataset (before any run), and with an `AbortError` when `signal`
 * aborts (the runs in flight are cancelled).
 *
 * @example
 * ```ts
 * const report = await evaluate({
 *   dataset: [{ id: 'paris', input: 'Capital of France?', expected: 'Paris' }],
 *   agent: () => new ReActAgent({ name: 'geo', model, sysPrompt: 'Answer in one word.' }),
 *   scorers: [includes()],
 * });
 * console.log(report.scorers['includes']?.passRate);
 * ```
 */
export async function evaluate(options: EvaluateOptions): Promise<EvalReport> {
  checkOptions(options, OPTION_KEYS, 'evaluate');
  const cases = loadDataset(options.dataset);
  if (typeof options.agent !== 'function') {
    throw new TypeError('evaluate: agent must be a function (testCase) => AgentBase.');
  }
  const scorers = namedScorers(options.scorers);
  const concurrency = positiveInteger(options.concurrency ?? 1, 'concurrency');
  const trials = positiveInteger(options.trials ?? 1, 'trials');
  const traceChunks = options.traceChunks ?? false;
  if (typeof traceChunks !== 'boolean') {
    throw new TypeError(`evaluate: traceChunks must be a boolean, not ${String(traceChunks)}.`);
  }
  const runner = { agent: options.agent, scorers: [...scorers], traceChunks };
  const runs: { readonly testCase: EvalCase; readonly trial: number }[] = [];
  for (const testCase of cases)
    for (let trial = 0; trial < trials; trial++) runs.push({ testCase, trial });
  const progress = new ProgressLine(progressOut(options.progress), runs.length);
  const finished = (result: CaseResult): void => progress.finished(result.passed);
  const startedAt = new Date();
  const started = performance.now();
  const results = await collect(
    // In dataset order, then trial: the order of `runs`, whatever order they finish in.
    runAll(runs, concurrency, ({ testCase, trial }) => {
      progress.started();
      return runCase(testCase, trial, runner, finished);
    }),
    options.signal,
  ).finally(() => progress.end());
  return {
    version: 1,
    name: options.name ?? 'eval',
    startedAt: startedAt.toISOString(),
    durationMs: performance.now() - started,
    cases: results,
    ...summarize(results, [...scorers.keys()]),
  };
}

function collect(
  source: Observable<CaseResult[]>,
  signal: AbortSignal | undefined,
): Promise<CaseResult[]> {
  return new Promise((resolve, reject) => {
    const abortError = () => {
      const error = new Error('The evaluation was aborted.', { cause: signal?.reason });
      error.name = 'AbortError';
      return error;
    };
    if (signal?.aborted) return reject(abortError());
    const onAbort = () => {
      subscription.unsubscribe();
      reject(abortError());
    };
    const subscription = source.subscribe({
      next: (results) => resolve(results),
      error: (error: unknown) => reject(error),
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    subscription.add(() => signal?.removeEventListener('abort', onAbort));
  });
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new TypeError(`evaluate: ${name} must be a positive integer, not ${String(value)}.`);
  }
  return value;
}

function progressOut(progress: ProgressOut | false | undefined): ProgressOut | undefined {
  if (progress === false) return undefined;
  const out = progress ?? process.stderr;
  return out.isTTY === true ? out : undefined;
}
