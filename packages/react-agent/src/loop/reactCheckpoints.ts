import type { JsonObject, Msg, ToolUseBlock } from '@rxagent/core';
import { concatMap, map, type Observable, of } from 'rxjs';
import type { Decisions, Resolutions } from './decisions.js';
import type { ReActCallState } from './reactCallState.js';
import type { Step } from './step.js';
import type { ToolCheckpoints } from './toolCheckpoints.js';

/** The text of the result of a tool call whose process stopped while it ran. */
export const IN_DOUBT_TEXT =
  '[interrupted] the process stopped while this tool ran; its outcome is unknown';

/**
 * Where a durable ReActAgent call checkpoints, in one place: after each step (a stored
 * reasoning reply, a finished tool batch, feedback), before each tool starts (the call marked
 * started) and after each stored tool result; one `context.checkpoint(progress)` per
 * boundary, saved in order, each awaited before the next model request or tool run (a
 * result's save is queued before the next tool's start and the step's own save). The
 * progress records the next step and the calls of the current batch that started, which
 * `resumeStep` turns back into a step after a crash.
 *
 * Two boundaries that meet are saved once: the save after a batch's last stored result is
 * the step's save that follows it, and a final step is saved by the call's end (marked
 * finished, with the reply) that follows it.
 */
export class ReActCheckpoints implements ToolCheckpoints {
  #next: JsonObject = { kind: 'reason' };
  #started: string[] = [];

  /**
   * `first`: the step the call starts with; `progress`: a recovered call's, whose started
   * calls stay started (a call in doubt once stays in doubt if the process dies again).
   */
  constructor(
    readonly state: ReActCallState,
    first: Step,
    progress?: JsonObject,
  ) {
    this.#next = nextRecord(first);
    if (first.kind === 'act' && progress !== undefined)
      this.#started = [...((progress['started'] as string[] | undefined) ?? [])];
  }

  /**
   * `source` (a step), then a checkpoint of the step it chose, then that step; a final step
   * at once (the call's end saves it).
   */
  afterStep(source: Observable<Step>): Observable<Step> {
    return source.pipe(
      concatMap((following) => {
        this.#next = nextRecord(following);
        this.#started = [];
        if (following.kind === 'final') return of(following);
        return this.state.context.checkpoint(this.#progress()).pipe(map(() => following));
      }),
    );
  }

  /** The checkpoint before `call`'s tool runs, marking it started. */
  beforeTool(call: ToolUseBlock): Observable<void> {
    this.#started.push(call.id);
    return this.state.context.checkpoint(this.#progress());
  }

  /**
   * The checkpoint after a stored tool result. Not waited for here: the next tool's start
   * and the step's own checkpoint are saved after it, and a failure makes those fail. After
   * the batch's `last` result, none: the step's checkpoint right after it saves that result.
   */
  afterResult(last: boolean): void {
    if (last) return;
    this.state.context.checkpoint(this.#progress()).subscribe({ error: () => undefined });
  }

  #progress(): JsonObject {
    const { state } = this;
    return {
      admitted: true,
      next: this.#next,
      started: [...this.#started],
      iterations: state.iterations,
      toolFailureStreak: state.toolFailureStreak,
      emptyAnswerReminded: state.emptyAnswerReminded,
      planReminded: state.planReminded,
      spent: state.meter.toJson(),
    };
  }
}

function nextRecord(step: Step): JsonObject {
  switch (step.kind) {
    case 'reason':
      return { kind: 'reason' };
    case 'summary':
      return { kind: 'summary', ...(step.reason && { reason: step.reason }) };
    case 'act':
      return {
        kind: 'act',
        ...(step.decisions && { decisions: step.decisions as unknown as JsonObject }),
        ...(step.resolved && { resolved: step.resolved as unknown as JsonObject }),
      };
    case 'final':
      return {
        kind: 'final',
        reply: step.reply as unknown as JsonObject,
        reason: step.reason,
        ...(step.metadata && { metadata: step.metadata }),
      };
  }
}

/**
 * The step a recovered call continues with, from its last checkpoint's progress: a stored
 * reply is not requested again, a stored result not run again. A tool call of the batch that
 * started and has no stored result is in doubt: it runs again when its tool is `idempotent`,
 * else it gets an `[interrupted]` error result with `resultKind: 'in_doubt'`.
 */
export function resumeStep(progress: JsonObject, state: ReActCallState): Step {
  state.iterations = numberOr(progress['iterations'], 0);
  state.toolFailureStreak = numberOr(progress['toolFailureStreak'], 0);
  state.emptyAnswerReminded = progress['emptyAnswerReminded'] === true;
  state.planReminded = progress['planReminded'] === true;
  // What the crashed process spent counts towards the recovered call's usage and budget.
  state.meter.restore(progress['spent']);
  const next = progress['next'] as JsonObject;
  switch (next['kind']) {
    case 'final': {
      const metadata = next['metadata'] as JsonObject | undefined;
      return {
        kind: 'final',
        reply: next['reply'] as unknown as Msg,
        reason: next['reason'] as never,
        ...(metadata && { metadata }),
      };
    }
    case 'summary':
      return { kind: 'summary', reason: next['reason'] as 'max_iterations' | 'tool_failures' };
    case 'act':
      return resumeActing(next, progress, state);
    default:
      return { kind: 'reason' };
  }
}

function resumeActing(next: JsonObject, progress: JsonObject, state: ReActCallState): Step {
  const { transcript, toolkit } = state;
  const started = new Set((progress['started'] as string[] | undefined) ?? []);
  const inDoubt = transcript.openCalls.filter(
    (call) => started.has(call.id) && toolkit.get(call.name)?.idempotent !== true,
  );
  transcript.close(inDoubt, () => IN_DOUBT_TEXT, 'in_doubt');
  // A closed call stays open in the transcript until the calls before it have results.
  const closed = new Set(inDoubt.map((call) => call.id));
  const calls = transcript.openCalls.filter((call) => !closed.has(call.id));
  if (calls.length === 0) return { kind: 'reason' };
  const decisions = next['decisions'] as unknown as Decisions | undefined;
  const resolved = next['resolved'] as unknown as Resolutions | undefined;
  return {
    kind: 'act',
    calls,
    invalidArguments: transcript.invalidArguments,
    ...(decisions && { decisions }),
    ...(resolved && { resolved }),
  };
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}
