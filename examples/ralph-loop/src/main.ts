import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { JsonFileSession } from '@rxagent/core';
import { chooseModel, runMain } from '@rxagent/example-kit';
import { policyScript } from './policy.js';
import { type LoopOutcome, type Out, runLoop } from './ralphLoop.js';

/** Options of `main`; each has a command-line flag too. */
export interface RalphLoopOptions {
  /** Where to print (default `process.stdout`). */
  readonly out?: Out;
  /** Environment that selects the model (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** Command-line flags: `--dir <path>`, `--max-steps <n>`, `--fresh`. */
  readonly argv?: readonly string[];
  /** Holds `state/` (the JsonFileSession) and `work/` (default: `.sessions/ralph-loop` in this example). */
  readonly dir?: string;
  /** The most steps the loop may take, counting earlier runs (default 8). */
  readonly maxSteps?: number;
  /** Start over even when a saved loop exists. */
  readonly fresh?: boolean;
}

const EXAMPLE_DIR = fileURLToPath(new URL('..', import.meta.url));

/**
 * Gated continuation: an agent fills in `lib.mjs` step by step, a check command decides
 * after each step whether the work counts, and the whole state is saved after every step,
 * so killing the process and starting it again continues after the last finished step. A
 * `STOP` file in the work dir, or the step limit, ends the loop.
 */
export async function main(options: RalphLoopOptions = {}): Promise<LoopOutcome> {
  const { values } = parseArgs({
    args: [...(options.argv ?? [])],
    options: {
      dir: { type: 'string' },
      'max-steps': { type: 'string' },
      fresh: { type: 'boolean' },
    },
  });
  const out = options.out ?? process.stdout;
  const dir = resolve(options.dir ?? values.dir ?? join(EXAMPLE_DIR, '.sessions', 'ralph-loop'));
  const maxSteps = options.maxSteps ?? Number(values['max-steps'] ?? 8);
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new Error(`--max-steps must be a positive integer, got ${values['max-steps']}.`);
  }
  const choice = chooseModel(policyScript, options.env);
  out.write(`${choice.banner}\n`);
  return runLoop({
    out,
    model: choice.model,
    session: new JsonFileSession(join(dir, 'state')),
    workDir: join(dir, 'work'),
    maxSteps,
    fresh: options.fresh ?? values.fresh ?? false,
  });
}

runMain(import.meta.url, () => main({ argv: process.argv.slice(2) }));
