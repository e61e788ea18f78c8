import type { Msg, ToolUseBlock } from '@rxagent/core';
import { Observable, Subscription } from 'rxjs';
import type { ReActCallState } from '../loop/reactCallState.js';
import type { StepHost } from '../loop/stepHost.js';
import { interruptedResult, toolResultMsg } from '../loop/toolResultMsg.js';
import { runToolCall, type ToolCallOutcome, type ToolCallSetup } from './runToolCall.js';

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
 *
 * Written as one `new Observable` (a hand-written `mergeMap` with a limit) rather than
 * `from` + `mergeMap` + `count` + `map` + `tap` + `finalize`: six operator layers per batch.
 */
export function actingStep(
  host: StepHost,
  state: ReActCallState,
  calls: readonly ToolUseBlock[],
  setup: ActingSetup,
): Observable<Msg[]> {
  return new Observable<Msg[]>((subscriber) => {
    const slots: (Msg | undefined)[] = calls.map(() => undefined);
    const limit = Math.max(1, setup.concurrency);
    const running = new Subscription();
    let started = 0;
    let active = 0;
    let finished = 0;
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
    const settle = (index: number, outcome: ToolCallOutcome): void => {
      if (outcome.stopRequested) state.stopAfterBatch = true;
      slots[index] = toolResultMsg(host.name, outcome.result);
      flush();
    };
    const fail = (error: unknown): void => {
      seal();
      subscriber.error(error);
    };
    const finishOne = (): void => {
      active--;
      finished++;
      if (finished < calls.length) startMore();
      else {
        done = true;
        subscriber.next(slots as Msg[]);
        subscriber.complete();
      }
    };
    // mergeMap(runToolCall, limit) by hand: starts calls in order, up to `limit` at once.
    const startMore = (): void => {
      while (active < limit && started < calls.length && !subscriber.closed) {
        const index = started++;
        active++;
        running.add(
          runToolCall(host, state, calls[index]!, setup).subscribe({
            next: (outcome) => {
              // A result a hook made invalid throws in toolResultMsg: it fails the batch.
              try {
                settle(index, outcome);
              } catch (error) {
                fail(error);
              }
            },
            error: fail,
            complete: finishOne,
          }),
        );
      }
    };
    if (calls.length === 0) {
      done = true;
      subscriber.next([]);
      subscriber.complete();
      return undefined;
    }
    startMore();
    return () => {
      running.unsubscribe();
      seal();
    };
  });
}
