import type { AgentEvent } from '@rxagent/core';
import type { Observable, Subscription } from 'rxjs';
import type { RunRequest } from './runRequest.js';
import { type WireControl, wireError } from './wireEvent.js';

/** How a run on this worker ended: its last event, or nothing (given up, or nothing to send). */
export type FlightEnd = AgentEvent | WireControl | undefined;

/**
 * One run in flight on a worker (waiting for its thread, or running), and the worker's hold
 * on it. The hold lasts `claimAfterMs` from the last renewal that Redis confirmed (counted
 * from when the renewal was sent, so it never outlives what other workers see): when it
 * runs out, or the worker learns another worker took the run, the flight is abandoned at
 * once — its agent call is unsubscribed (so no further step of it starts here), the call's
 * Promise settles, and `released` resolves, so `stop()` never waits on a run it lost.
 * Internal.
 */
export class WorkerFlight {
  seq = 0;
  /** Whether this worker holds the run's thread. */
  holding = false;
  /** Set when the run must stop here (hold lost, or stop() gave up waiting for the thread). */
  abandoned = false;
  /** Resolves when the run has ended here, or was abandoned. */
  readonly released: Promise<void>;
  #release!: () => void;
  #running: Subscription | undefined;
  #settle: ((end: FlightEnd) => void) | undefined;
  #watchdog: NodeJS.Timeout | undefined;

  constructor(
    readonly request: RunRequest,
    readonly holdMs: number,
  ) {
    this.released = new Promise<void>((resolve) => {
      this.#release = resolve;
    });
  }

  /**
   * Records that Redis confirmed this worker's hold as of `sentAt` (`performance.now()` when
   * the confirming command was sent): the flight is abandoned `holdMs` after it, unless
   * confirmed again.
   */
  held(sentAt: number): void {
    if (this.abandoned) return;
    clearTimeout(this.#watchdog);
    const left = Math.max(0, sentAt + this.holdMs - performance.now());
    this.#watchdog = setTimeout(() => this.abandon(), left);
  }

  /**
   * Runs `source` (the host's call or recovery) until it ends or the flight is abandoned:
   * each event but the reply goes to `onEvent`; resolves with the reply, a `failed` control
   * for an error, or `undefined` when abandoned or when it completed without a reply.
   */
  run(source: Observable<AgentEvent>, onEvent: (event: AgentEvent) => void): Promise<FlightEnd> {
    if (this.abandoned) return Promise.resolve(undefined);
    return new Promise<FlightEnd>((resolve) => {
      let reply: AgentEvent | undefined;
      this.#settle = resolve;
      this.#running = source.subscribe({
        next: (event) => {
          if (event.type === 'reply') reply = event;
          else if (!this.abandoned) onEvent(event);
        },
        error: (error: unknown) => resolve(this.#failed(error)),
        complete: () => resolve(reply),
      });
    }).finally(() => {
      this.#settle = undefined;
      this.#running = undefined;
    });
  }

  /** Stops the run here at once: its call is cancelled and nothing more of it is published. */
  abandon(): void {
    if (this.abandoned) return;
    this.abandoned = true;
    clearTimeout(this.#watchdog);
    this.#running?.unsubscribe();
    this.#settle?.(undefined);
    this.#release();
  }

  /** Ends the flight (its run finished or was handed on); stops the hold's watchdog. */
  end(): void {
    clearTimeout(this.#watchdog);
    this.#release();
  }

  #failed(error: unknown): FlightEnd {
    return this.abandoned ? undefined : { type: 'failed', error: wireError(error) };
  }
}
