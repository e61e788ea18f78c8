/**
 * The spread of every budget line over the last N full runs (not part of `pnpm bench`): reads
 * the newest `bench/results/bench-*.json` files of full runs (`--quick` and `--only` runs are
 * skipped) and prints, per budget line, its value in each run, the range, and in how many runs
 * it passed (a limit measured in each run, such as a noise bound, is shown beside each value).
 * Usage: `node --import tsx src/tools/budgetSpread.ts [runs=5]`
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RESULTS_DIR } from '../lib/report.js';
import type { BudgetCheck } from '../lib/result.js';
import { fmt } from '../lib/table.js';

interface RunFile {
  readonly date: string;
  readonly config: { readonly quick: boolean };
  readonly only?: readonly string[];
  readonly budgets: readonly BudgetCheck[];
}

const wanted = Number(process.argv[2] ?? 5);
const runs = readdirSync(RESULTS_DIR)
  .filter((name) => /^bench-.*\.json$/.test(name))
  .sort()
  .reverse()
  .map((name) => JSON.parse(readFileSync(join(RESULTS_DIR, name), 'utf8')) as RunFile)
  .filter((run) => !run.config.quick && !run.only)
  .slice(0, wanted)
  .reverse();
if (runs.length === 0) throw new Error(`no full run in ${RESULTS_DIR}: run the bench first`);

console.log(`${runs.length} full runs: ${runs.map((run) => run.date).join(', ')}\n`);
const lines = [...new Set(runs.flatMap((run) => run.budgets.map((b) => b.line)))];
for (const line of lines) {
  const checks = runs.map((run) => run.budgets.find((b) => b.line === line));
  const values = checks.flatMap((b) => (b ? [b.value] : []));
  const passed = checks.filter((b) => b?.pass).length;
  const limits = new Set(checks.flatMap((b) => (b ? [b.limit] : [])));
  // A limit measured in each run (a noise bound) is shown beside each value.
  const shown = checks
    .map((b) => {
      if (!b) return '–';
      const limit = limits.size > 1 ? ` (≤ ${fmt(b.limit)})` : '';
      return `${fmt(b.value)}${limit}${b.pass ? '' : ' MISS'}`;
    })
    .join('  ');
  console.log(
    `${passed}/${runs.length}  ${line}\n      ${shown}   (range ${fmt(Math.min(...values))} – ${fmt(Math.max(...values))}${limits.size === 1 ? `, limit ${checks.find((b) => b)?.bound === 'min' ? '≥ ' : ''}${fmt([...limits][0]!)}` : ''})`,
  );
}
