import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { BUILD_DIR } from '../build/buildPackages.js';
import type { BenchConfig } from '../lib/config.js';
import { interleave } from '../lib/interleave.js';
import { row, type SuiteResult } from '../lib/result.js';
import { pairRatios } from '../lib/stats.js';

const run = promisify(execFile);

const DEPENDENCIES = ['openai', 'rxjs', 'zod', 'zod-to-json-schema'];
const DEPS_LABEL = 'its dependencies only (openai, rxjs, zod, zod-to-json-schema)';
const OWN_LABEL = "rxagent's own modules (@rxagent/react-agent once its dependencies are loaded)";

/** What each sample imports: untimed first (`before`), then timed (`timed`). */
const TARGETS: Record<
  string,
  { readonly before: readonly string[]; readonly timed: readonly string[] }
> = {
  '@rxagent/react-agent': { before: [], timed: ['@rxagent/react-agent'] },
  [DEPS_LABEL]: { before: [], timed: DEPENDENCIES },
  [OWN_LABEL]: { before: DEPENDENCIES, timed: ['@rxagent/react-agent'] },
  'openai alone': { before: [], timed: ['openai'] },
};

/**
 * Milliseconds a fresh `node` takes to import `timed` (after `before`) from the built
 * packages, measured inside the child around the dynamic imports, so process start-up is
 * not counted.
 */
async function importMs(before: readonly string[], timed: readonly string[]): Promise<number> {
  const load = (specifiers: readonly string[]) =>
    specifiers.map((s) => `await import(${JSON.stringify(s)});`).join(' ');
  const script = `${load(before)} const t = performance.now(); ${load(timed)} process.stdout.write(String(performance.now() - t));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: BUILD_DIR,
  });
  return Number(stdout);
}

/**
 * Suite 6: import time of `@rxagent/react-agent` as users get it (built JavaScript, plain
 * node, no loader) in fresh processes; next to its dependencies alone, and its own modules
 * alone (imported once the dependencies are loaded).
 */
export async function importTime(config: BenchConfig): Promise<SuiteResult> {
  const samples = await interleave(
    Object.entries(TARGETS).map(([label, { before, timed }]) => ({
      label,
      sample: async () => {
        const times: number[] = [];
        for (let i = 0; i < config.importRuns; i++) times.push(await importMs(before, timed));
        times.sort((a, b) => a - b);
        return { value: times[Math.floor(times.length / 2)]! };
      },
    })),
    3,
    1,
  );
  const get = (label: string) => samples.get(label);
  return {
    id: 'importTime',
    title: `Import time in a fresh node process (built packages; each sample the median of ${config.importRuns} processes), 3 rounds`,
    rows: [
      ...Object.keys(TARGETS).map((label) => row(`import ${label}`, 'ms', get(label))),
      row(
        '@rxagent/react-agent / its dependencies only',
        '×',
        pairRatios(get('@rxagent/react-agent'), get(DEPS_LABEL)),
      ),
    ],
    budgets: [],
    details: { samples: samples.toJSON() },
  };
}
