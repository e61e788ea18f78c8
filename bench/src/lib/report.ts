import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { BenchConfig } from './config.js';
import type { BudgetCheck, SuiteResult } from './result.js';
import { budgetText, markdownSuite } from './table.js';

/** Where result files go (gitignored). */
export const RESULTS_DIR = fileURLToPath(new URL('../../results/', import.meta.url));

/** The machine a run happened on. */
export function machine() {
  const cores = cpus();
  return {
    cores: cores.length,
    cpu: cores[0]?.model ?? 'unknown',
    node: process.version,
    os: `${process.platform} ${release()}`,
    memoryGB: Math.round(totalmem() / 1024 ** 3),
  };
}

/** The budget lines of every suite. */
export function budgetsOf(suites: readonly SuiteResult[]): BudgetCheck[] {
  return suites.flatMap((suite) => suite.budgets);
}

/** The closing summary: every budget line, PASS or MISS. */
export function renderBudgets(suites: readonly SuiteResult[]): string {
  const lines = budgetsOf(suites).map(budgetText);
  return ['\n## Budget', ...lines].join('\n');
}

/**
 * Writes `results/bench-<date>.json` (`only`: the suites `--only` named, if any) (and `latest.json`, `latest.md`, a Markdown rendering
 * for BENCHMARKS.md); returns the JSON file's path.
 */
export function writeResults(
  suites: readonly SuiteResult[],
  config: BenchConfig,
  mode: string,
  seconds: number,
  only?: readonly string[],
): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const date = new Date().toISOString();
  const result = {
    date,
    machine: machine(),
    mode,
    config,
    /** The suites named with `--only`; absent for a full run. */
    ...(only && { only }),
    durationSeconds: Math.round(seconds),
    budgets: budgetsOf(suites),
    suites,
  };
  const json = JSON.stringify(result, null, 2);
  const file = `${RESULTS_DIR}bench-${date.replace(/[:.]/g, '-')}.json`;
  writeFileSync(file, json);
  writeFileSync(`${RESULTS_DIR}latest.json`, json);
  const m = result.machine;
  const markdown = [
    `Run ${date} on ${m.cores} × ${m.cpu}, Node ${m.node}, ${m.os} (${mode} packages, ${seconds.toFixed(0)} s).`,
    '',
    ...suites.map((suite) => `${markdownSuite(suite)}\n`),
  ].join('\n');
  writeFileSync(`${RESULTS_DIR}latest.md`, markdown);
  return file;
}
