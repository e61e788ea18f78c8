import type { ServerResponse } from 'node:http';
import { type Event, EventType, type RunAgentInput } from '@ag-ui/core';
import type { AgentEvent, Msg } from '@rxagent/core';
import type { Observable, Subscription } from 'rxjs';
import { openEventStream } from './eventStream.js';
import { toAgUiEvents } from './toAgUiEvents.js';

/** A request that passed every check: the run to serve. */
export interface PreparedRun {
  readonly input: RunAgentInput;
  readonly msgs: Msg | Msg[] | undefined;
  /** The run's events (an agent's `stream(msgs)`, or an AgentHost thread's). Cold. */
  readonly stream: () => Observable<AgentEvent>;
  /** Interrupts the run (the client went away). */
  readonly interrupt: () => void;
  /** Called once when the response ends, however it ends. */
  readonly ended?: () => void;
}

/**
 * Runs the agent and streams the run's AG-UI events to `res` as server-sent events. Never
 * throws, and nothing it does inside a subscriber can throw (an event that cannot be
 * encoded ends the run with a RUN_ERROR and cancels the call). A client that disconnects
 * interrupts the agent, and the call is cancelled if it has not ended after `graceMs`.
 */
export function serveRun(res: ServerResponse, run: PreparedRun, graceMs: number): void {
  // The client may have gone while the body was read or the agent was fetched: run nothing.
  if (res.destroyed || res.socket === null || res.socket.destroyed) return;
  const encoder = openEventStream(res);
  const { input } = run;
  let ended = false;
  let graceTimer: NodeJS.Timeout | undefined;
  let subscription: Subscription | undefined;
  const release = (): void => {
    if (!ended) run.ended?.();
    ended = true;
    clearTimeout(graceTimer);
    res.off('close', onClose);
  };
  const onClose = (): void => {
    if (ended) return;
    // The client went away mid-run: interrupt so the agent ends its call cleanly (memory
    // keeps an interrupt reply), and cancel it if it does not end in time.
    run.interrupt();
    graceTimer = setTimeout(() => subscription?.unsubscribe(), graceMs);
    graceTimer.unref();
  };
  /** An event could not be encoded: tell the client, end the response and cancel the call. */
  const abandon = (error: unknown): void => {
    release();
    if (!res.destroyed && !res.writableEnded) res.end(encoder.encodeSSE(runError(error)));
    subscription?.unsubscribe();
  };
  res.on('close', onClose);
  subscription = toAgUiEvents(run.stream(), {
    threadId: input.threadId,
    runId: input.runId,
    input,
  }).subscribe({
    next: (event) => {
      if (ended || res.destroyed || res.writableEnded) return;
      let frame: string;
      try {
        frame = encoder.encodeSSE(event);
      } catch (error) {
        abandon(error);
        return;
      }
      res.write(frame);
    },
    // toAgUiEvents turns errors into RUN_ERROR, so `error` only guards against the unexpected.
    error: () => {
      release();
      res.destroy();
    },
    complete: () => {
      release();
      if (!res.destroyed && !res.writableEnded) res.end();
    },
  });
  // Unsubscribing (after the grace period) does not complete the Observable: release here too.
  subscription.add(release);
  // An event of the synchronous start failed to encode before `subscription` was assigned.
  if (ended) subscription.unsubscribe();
}

function runError(error: unknown): Event {
  const reason = error instanceof Error ? error.message : String(error);
  return {
    type: EventType.RUN_ERROR,
    message: `The server could not send an event of this run (${reason}); the run was cancelled.`,
    code: 'EVENT_ENCODING_FAILED',
    timestamp: Date.now(),
  };
}
