import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const CHECKS_SCRIPT = fileURLToPath(new URL('./checks.mjs', import.meta.url));

/** One check of the checklist and how the work did on it. */
export interface CheckResult {
  readonly id: string;
  readonly title: string;
  readonly pass: boolean;
  readonly detail: string;
}

/** The gate's verdict on the work dir's current state. */
export interface GateRun {
  readonly results: readonly CheckResult[];
  readonly passing: readonly string[];
}

/**
 * Runs the check command (`node checks.mjs lib.mjs`) in a child process with a time limit,
 * so code the agent wrote can neither hang nor crash the loop. A check command that fails
 * or prints something unreadable counts as every check failing.
 */
export async function runGate(workDir: string, timeoutMs = 10_000): Promise<GateRun> {
  let results: CheckResult[];
  try {
    const { stdout } = await run(process.execPath, [CHECKS_SCRIPT, join(workDir, 'lib.mjs')], {
      cwd: workDir,
      timeout: timeoutMs,
    });
    results = (JSON.parse(stdout) as { results: CheckResult[] }).results;
  } catch (error) {
    const detail = `the check command failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
    results = [{ id: 'check-command', title: 'the check command runs', pass: false, detail }];
  }
  return { results, passing: results.filter((result) => result.pass).map((result) => result.id) };
}

/** Whether a step's work counts, and why. */
export interface GateDecision {
  readonly counts: boolean;
  readonly reason: string;
}

/**
 * The gate: a step counts when it makes at least one more check pass and breaks none that
 * passed before; anything else is rolled back.
 */
export function decide(before: readonly string[], after: GateRun): GateDecision {
  const broken = before.filter((id) => !after.passing.includes(id));
  if (broken.length > 0) return { counts: false, reason: `it broke ${broken.join(', ')}` };
  const gained = after.passing.filter((id) => !before.includes(id));
  if (gained.length === 0) return { counts: false, reason: 'no new check passes' };
  return { counts: true, reason: `now passing: ${gained.join(', ')}` };
}
