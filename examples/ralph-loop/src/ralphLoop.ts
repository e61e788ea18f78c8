import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { type ChatModel, type JsonFileSession, userMsg } from '@rxagent/core';
import { ReActAgent } from '@rxagent/react-agent';
import { renderEvents } from '@rxagent/terminal';
import { filter, lastValueFrom } from 'rxjs';
import { decide, type GateRun, runGate } from './gate/runGate.js';
import { type LoopState, loadLoopState, saveLoopState } from './loopState.js';
import { workDirTools } from './workDirTools.js';

/** Where the examples print: a stream, like `process.stdout`. */
export type Out = NodeJS.WritableStream & { readonly isTTY?: boolean };

/** What the loop needs. */
export interface LoopContext {
  readonly out: Out;
  readonly model: ChatModel;
  readonly session: JsonFileSession;
  /** The agent's sandbox: lib.mjs, TASK.md, and the STOP flag. */
  readonly workDir: string;
  readonly maxSteps: number;
  /** Forget any saved state and start over. */
  readonly fresh: boolean;
}

/** How a run ended. */
export interface LoopOutcome {
  /** The step finished before this run began (0 for a new loop). */
  readonly resumedAfter: number;
  /** The steps this run carried out. */
  readonly stepsRun: readonly number[];
  readonly stoppedBy: 'done' | 'stop-file' | 'max-steps';
  readonly state: LoopState;
}

const LIB = 'lib.mjs';

/**
 * The gated continuation loop: each step asks the agent to make the next failing check pass,
 * runs the gate, keeps or rolls back the work, and saves everything before the next step,
 * so a killed process continues after the last finished step.
 */
export async function runLoop(context: LoopContext): Promise<LoopOutcome> {
  const { out, workDir } = context;
  const agent = createWorker(context);
  let state = context.fresh ? undefined : await loadLoopState(context.session);
  if (state?.status === 'done') {
    out.write(`the previous run finished after step ${state.step}; starting over\n`);
    state = undefined;
  }
  if (state === undefined) {
    state = await initialise(context, agent);
    out.write(
      `new loop in ${shortPath(workDir)}: the gate passes ${state.passing.length}/${state.results.length} checks\n`,
    );
  } else {
    agent.loadStateDict(state.agent);
    await restoreFiles(workDir, state.files);
    out.write(
      `resuming at step ${state.step + 1} (steps 1–${state.step} are saved; the gate passes ${state.passing.length}/${state.results.length}; ` +
        `${LIB} reset to the last accepted version)\n`,
    );
  }
  const resumedAfter = state.step;
  const stepsRun: number[] = [];
  for (;;) {
    const stop = stopReason(state, context);
    if (stop !== undefined) {
      out.write(`\n${stopMessage(stop, state, context)}\n`);
      printHistory(out, state);
      return { resumedAfter, stepsRun, stoppedBy: stop, state };
    }
    const step = state.step + 1;
    const next = state.results.find((result) => !result.pass)!;
    out.write(`\n── step ${step} (at most ${context.maxSteps}) · next check: ${next.id}\n`);
    await lastValueFrom(
      agent.stream(userMsg(stepPrompt(step, state, context.maxSteps))).pipe(
        renderEvents({ out }),
        filter((event) => event.type === 'reply'),
      ),
    );
    const gate = await runGate(workDir);
    const verdict = decide(state.passing, gate);
    if (!verdict.counts) await restoreFiles(workDir, state.files);
    state = await nextState(state, step, gate, verdict, agent, workDir);
    await saveLoopState(context.session, state);
    stepsRun.push(step);
    const mark = verdict.counts ? '✓ counts' : `✗ does not count, ${LIB} rolled back`;
    out.write(
      `gate: ${gate.passing.length}/${gate.results.length} checks pass — ${mark} (${verdict.reason})\n`,
    );
    const target = gate.results.find((result) => result.id === next.id);
    if (!verdict.counts && target) out.write(`  ${target.id}: ${target.detail}\n`);
    out.write(`step ${step} finished (state saved)\n`);
  }
}

function createWorker(context: LoopContext): ReActAgent {
  return new ReActAgent({
    name: 'worker',
    sysPrompt:
      'You are a careful JavaScript developer working in a small directory through read_file and write_file. ' +
      'Each step: read lib.mjs (and TASK.md if you need it), then write the whole lib.mjs so the next failing check passes ' +
      'without breaking the passing ones. Plain ES module, no dependencies. Finish with one sentence on what you changed.',
    model: context.model,
    toolkit: workDirTools(context.workDir),
    maxIters: 6,
  });
}

async function initialise(context: LoopContext, agent: ReActAgent): Promise<LoopState> {
  const { workDir } = context;
  await rm(workDir, { recursive: true, force: true });
  await mkdir(workDir, { recursive: true });
  await writeFile(
    join(workDir, LIB),
    '// String helpers: implement the checklist in TASK.md.\n',
    'utf8',
  );
  const gate = await runGate(workDir);
  await writeFile(join(workDir, 'TASK.md'), taskText(gate), 'utf8');
  const state: LoopState = {
    version: 1,
    step: 0,
    status: 'running',
    passing: gate.passing,
    results: gate.results,
    files: { [LIB]: await readFile(join(workDir, LIB), 'utf8') },
    history: [],
    agent: agent.stateDict(),
  };
  await saveLoopState(context.session, state);
  return state;
}

async function nextState(
  state: LoopState,
  step: number,
  gate: GateRun,
  verdict: { counts: boolean; reason: string },
  agent: ReActAgent,
  workDir: string,
): Promise<LoopState> {
  const entry = { step, passing: gate.passing.length, total: gate.results.length, ...verdict };
  const accepted = verdict.counts
    ? gate
    : { passing: state.passing, results: markKept(state, gate) };
  const files = verdict.counts
    ? { [LIB]: await readFile(join(workDir, LIB), 'utf8') }
    : state.files;
  const done = accepted.results.every((result) => result.pass);
  return {
    ...state,
    step,
    status: done ? 'done' : 'running',
    passing: accepted.passing,
    results: accepted.results,
    files,
    history: [...state.history, { ...entry, counted: verdict.counts }],
    agent: agent.stateDict(),
  };
}

/** After a rollback the accepted checks still pass; the rejected attempt's failures are kept as feedback. */
function markKept(state: LoopState, gate: GateRun): GateRun['results'] {
  return gate.results.map((result) =>
    state.passing.includes(result.id) ? { ...result, pass: true, detail: 'ok' } : result,
  );
}

function stopReason(state: LoopState, context: LoopContext): LoopOutcome['stoppedBy'] | undefined {
  if (state.status === 'done') return 'done';
  if (existsSync(join(context.workDir, 'STOP'))) return 'stop-file';
  if (state.step >= context.maxSteps) return 'max-steps';
  return undefined;
}

function stopMessage(
  stop: LoopOutcome['stoppedBy'],
  state: LoopState,
  context: LoopContext,
): string {
  switch (stop) {
    case 'done':
      return `done: all ${state.results.length} checks pass after ${state.step} steps`;
    case 'stop-file':
      return `STOP file found in ${shortPath(context.workDir)}: stopping after step ${state.step} (delete it and run again to continue)`;
    case 'max-steps':
      return `stopped at the limit of ${context.maxSteps} steps (run again with a higher --max-steps to continue)`;
  }
}

function stepPrompt(step: number, state: LoopState, maxSteps: number): string {
  const failing = state.results.filter((result) => !result.pass);
  const last = state.history[state.history.length - 1];
  return [
    `Step ${step} (at most ${maxSteps}). The gate passes ${state.passing.length} of ${state.results.length} checks${state.passing.length > 0 ? `: ${state.passing.join(', ')}` : ''}.`,
    ...(last && !last.counted
      ? [
          `The last step did not count (${last.reason}); ${LIB} was rolled back to the last accepted version.`,
        ]
      : []),
    'Failing checks:',
    ...failing.map((result) => `- ${result.id}: ${result.detail}`),
    `Next check: ${failing[0]?.id ?? 'none'}`,
    `Read ${LIB}, then write the whole file so that check passes without breaking the others. Then say in one sentence what you changed.`,
  ].join('\n');
}

function taskText(gate: GateRun): string {
  return [
    '# Task: string helpers in lib.mjs',
    '',
    'Implement these as named exports of lib.mjs (an ES module without dependencies):',
    '',
    ...gate.results.map((result, index) => `${index + 1}. ${result.id}: ${result.title}`),
    '',
    'After each step a gate runs the checks; a step counts only when a new check passes and none breaks.',
    '',
  ].join('\n');
}

async function restoreFiles(
  workDir: string,
  files: Readonly<Record<string, string>>,
): Promise<void> {
  await mkdir(workDir, { recursive: true });
  for (const [name, content] of Object.entries(files))
    await writeFile(join(workDir, name), content, 'utf8');
}

function printHistory(out: Out, state: LoopState): void {
  out.write('gate history:\n');
  for (const entry of state.history) {
    const mark = entry.counted ? '✓' : '✗';
    out.write(`  step ${entry.step}: ${mark} ${entry.passing}/${entry.total} (${entry.reason})\n`);
  }
}

/** `file` relative to the working directory when it is below it, else as given. */
function shortPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? file : rel;
}
