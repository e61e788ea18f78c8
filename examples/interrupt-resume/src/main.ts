import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JsonFileSession } from '@rxagent/core';
import { runMain } from '@rxagent/example-kit';
import { type ApprovalOutcome, approvalPart } from './approvalPart.js';
import { type InterruptOutcome, interruptPart } from './interruptPart.js';
import { type ResumeOutcome, resumePart } from './resumePart.js';
import type { Out, RunContext, TimelineEntry } from './runContext.js';
import type { Input } from './userInput.js';

/** Options of `main`. */
export interface InterruptResumeOptions {
  /** Where to print (default `process.stdout`). */
  readonly out?: Out;
  /** Environment that selects the model (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Command-line flags: `--resume` runs parts 2–3 from the saved session, `--interrupt-only`
   * part 1, `--approve` approves the held call without asking (else a run without a terminal
   * denies it).
   */
  readonly argv?: readonly string[];
  /**
   * Keypress and prompt (default: when stdin and stdout are terminals); else a timer, and the
   * held call is denied unless `--approve` is given: nobody is there to approve it.
   */
  readonly interactive?: boolean;
  readonly input?: Input;
  /** Where the session file (and the published reports) go (default: `.sessions/` in this example). */
  readonly sessionDir?: string;
  /** Milliseconds per scanned month (default 400: the full-year scan takes 4.8 s). */
  readonly monthMs?: number;
  /** When not interactive, interrupt this long after the scan starts (default 1000). */
  readonly interruptAfterMs?: number;
}

/** What a run did, part by part (a part that did not run is absent). */
export interface InterruptResumeResult {
  readonly sessionFile: string;
  readonly timeline: readonly TimelineEntry[];
  readonly interrupted?: InterruptOutcome;
  readonly resumed?: ResumeOutcome;
  readonly approval?: ApprovalOutcome;
}

const EXAMPLE_DIR = fileURLToPath(new URL('..', import.meta.url));

/**
 * A long task the user interrupts, saved to a JsonFileSession; a fresh agent loads it and
 * continues; then a tool call that waits for approval. By default all three parts run in one
 * program; `--interrupt-only` then `--resume` split them over two processes.
 */
export async function main(options: InterruptResumeOptions = {}): Promise<InterruptResumeResult> {
  const argv = options.argv ?? [];
  const input = options.input ?? process.stdin;
  const out = options.out ?? process.stdout;
  const started = Date.now();
  const timeline: TimelineEntry[] = [];
  const now = (): number => Date.now() - started;
  const context: RunContext = {
    out,
    env: options.env ?? process.env,
    interactive: options.interactive ?? (input.isTTY === true && out.isTTY === true),
    approve: argv.includes('--approve'),
    input,
    session: new JsonFileSession(options.sessionDir ?? join(EXAMPLE_DIR, '.sessions')),
    monthMs: options.monthMs ?? 400,
    interruptAfterMs: options.interruptAfterMs ?? 1_000,
    timeline,
    now,
    log: (what) => timeline.push({ at: now(), what }),
  };
  const resume = argv.includes('--resume');
  const interrupted = resume ? undefined : await interruptPart(context, true);
  if (argv.includes('--interrupt-only')) {
    out.write('\nnow run again with --resume to continue in a new process\n');
    return {
      sessionFile: context.session.pathFor('incident-assistant'),
      timeline,
      ...(interrupted && { interrupted }),
    };
  }
  const resumed = await resumePart(context, resume);
  const approval = await approvalPart(resumed.agent, context);
  return {
    sessionFile: context.session.pathFor('incident-assistant'),
    timeline,
    ...(interrupted && { interrupted }),
    resumed,
    approval,
  };
}

runMain(import.meta.url, () => main({ argv: process.argv.slice(2) }));
