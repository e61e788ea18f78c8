import type { Msg, ToolUseBlock } from '@rxagent/core';
import { count, defer, finalize, from, map, mergeMap, type Observable, tap } from 'rxjs';
import type { ReActCallState } from '../loop/reactCallState.js';
import type { StepHost } from '../loop/stepHost.js';
import { interruptedResult, toolResultMsg } from '../loop/toolResultMsg.js';
import { runToolCall, type ToolCallSetup } from './runToolCall.js';

/** How a batch of tool calls runs. */
export interface ActingSetup extends ToolCallSetup {
  /** How many calls run at once (1 = one after another). */
  readonly concurrency: number;
}

/**
 * Runs the tool calls of one reply, up to `concurrency` at once, and stores each result in
 * memory in call order (a result that finishes early waits for the ones before it). Cold;
 * emits the stored result Msgs (in call order) once the batch is done. On any other exit
 * (error, interrupt, unsubscribe) every call still without a stored result gets one —
 * its own result if it finished, an `[interrupted]` error result otherwise — so memory
 * stays a valid conversation.
 */
export function actingStep(
  host: StepHost,
  state: ReActCallState,
  calls: readonly ToolUseBlock[],
  setup: ActingSetup,
): Observable<Msg[]> {
  return defer(() => {
    const slots: (Msg | undefined)[] = calls.map(() => undefined);
    let stored = 0;
    let done = false;
    const flush = (): void => {
      while (stored < calls.length && slots[stored]) host.memory.add(slots[stored++]!);
    };
    const seal = (): void => {
      if (done) return;
      done = true;
      for (; stored < calls.length; stored++) {
        host.memory.add(
          slots[stored] ?? toolResultMsg(host.name, interruptedResult(calls[stored]!)),
        );
      }
    };
    const run = from(calls.map((call, index) => ({ call, index }))).pipe(
      mergeMap(
        ({ call, index }) =>
          runToolCall(host, state, call, setup).pipe(
            tap((outcome) => {
              if (outcome.stopRequested) state.stopAfterBatch = true;
              slots[index] = toolResultMsg(host.name, outcome.result);
              flush();
            }),
          ),
        Math.max(1, setup.concurrency),
      ),
    );
    const results = (): Msg[] => {
      done = true;
      return slots as Msg[];
    };
    // count() emits once, when every call has finished: one operator where
    // concat(run, defer(results)) took five subscriptions per batch.
    return run.pipe(count(), map(results), tap({ error: seal }), finalize(seal));
  });
}
