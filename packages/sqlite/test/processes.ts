import { fileURLToPath } from 'node:url';
import { runTsToEnd } from '../../../scripts/testing/tsProcess.js';

const fixture = fileURLToPath(new URL('./fixtures/sessionProcess.ts', import.meta.url));

/** Runs the session fixture in a new Node process with `env`; resolves its stdout. */
export async function runSessionProcess(env: Record<string, string>): Promise<string> {
  const run = await runTsToEnd(fixture, env);
  if (run.killed) throw new Error('the session process was killed');
  return run.stdout;
}
