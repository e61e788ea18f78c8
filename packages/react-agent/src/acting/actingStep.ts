import type { ApprovalPendingError, Msg, ToolUseBlock } from '@rxagent/core';
import { Observable, type Observer, Subscription } from 'rxjs';
import type { ReActCallState } from '../loop/reactCallState.js';
import { runInOrder } from './mergeInOrder.js';
import { startToolCall, type ToolCallOutcome, type ToolCallSetup } from './runToolCall.js';

/** How a batch of tool calls runs. */
export interface ActingSetup extends ToolCallSetup {
  /** How many calls run at once (1 = one after another). */
  readonly concurrency: number;
}

/** What an acting step decided: the stored result Msgs (call order), and whether to stop. */
export interface ActingOutcome {
  /** The results stored, in call order (suspended calls have none). */
  readonly results: readonly Msg[];
  /** A postActing hook of the batch asked to end the call after it. */
  readonly stopRequested: boolean;
  /** The calls left open because calls inside them wait for approval, in call order. */
  readonly suspended: readonly SuspendedCall[];
}

/** A call of the batch whose tool ended with an `ApprovalPendingError`. */
export interface SuspendedCall {
  readonly call: ToolUseBlock;
  readonly pending: ApprovalPendingError;
}

/**
 * Runs the tool calls of one reply, up to `concurrency` at once, and has the transcript
 * store each result in call order (a result that finishes early waits for the ones before
 * it). Cold; emits one outcome once the batch is done — `decide(outcome)` when given (a
 * throw in it errors), so a caller's next step costs no operator. On any other exit (error,
 * interrupt, unsubscribe) the loop seals the transcript, which gives every call still open
 * its finished result or an `[interrupted]` one. `onStart` runs on subscription.
 */
export function actingStep<R = ActingOutcome>(
  state: ReActCallState,
  calls: readonly ToolUseBlock[],
  setup: ActingSetup,
  decide?: (outcome: ActingOutcome) => R,
  onStart?: () => void,
): Observable<R> {
  return new Observable<R>((subscriber) =>
    startActingStep(state, calls, setup, subscriber, decide, onStart),
  );
}

/**
 * What subscribing to `actingStep` does, for a loop that starts its steps without an
 * Observable around each: the outcome goes to `sink`, which must pass on nothing after its
 * end and be `closed` from then on, as a subscriber is. Returns what stops the step.
 */
export function startActingStep<R = ActingOutcome>(
  state: ReActCallState,
  calls: readonly ToolUseBlock[],
  setup: ActingSetup,
  sink: Observer<R> & { readonly closed: boolean },
  decide?: (outcome: ActingOutcome) => R,
  onStart?: () => void,
): Subscription {
  const subscriber = sink;
  onStart?.();
  let stopRequested = false;
  const suspended: SuspendedCall[] = [];
  const store = (index: number, outcome: ToolCallOutcome): Msg | undefined => {
    if (outcome.suspended !== undefined) {
      suspended.push({ call: calls[index]!, pending: outcome.suspended });
      state.transcript.suspend(calls[index]!);
      return undefined;
    }
    if (outcome.stopRequested) stopRequested = true;
    const msg = state.transcript.settle(
      calls[index]!,
      outcome.result,
      outcome.kind,
      outcome.metadata,
    );
    // Results are stored in call order: the last call's is the batch's last.
    state.checkpoints?.afterResult(index === calls.length - 1);
    return msg;
  };
  const done = (results: (Msg | undefined)[]): void => {
    const stored =
      suspended.length === 0
        ? (results as Msg[])
        : results.filter((msg): msg is Msg => msg !== undefined);
    const outcome: ActingOutcome = { results: stored, stopRequested, suspended };
    let value: R;
    try {
      value = decide ? decide(outcome) : (outcome as R);
    } catch (error) {
      subscriber.error(error);
      return;
    }
    subscriber.next(value);
    subscriber.complete();
  };
  const start = (index: number, sink: Observer<ToolCallOutcome>) =>
    startToolCall(state, calls[index]!, setup, sink);
  const running = runInOrder<ToolCallOutcome, Msg | undefined>(
    calls.length,
    start,
    setup.concurrency,
    store,
    subscriber,
    done,
  );
  return running ?? Subscription.EMPTY;
}
