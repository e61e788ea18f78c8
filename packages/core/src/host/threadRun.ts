import { type Observable, ReplaySubject } from 'rxjs';
import type { AgentEvent } from '../agent/agentEvent.js';
import type { Msg } from '../message/msg.js';

/**
 * The run in flight on one AgentHost thread: every event it emitted so far, for
 * `attach()`, and what was asked of it before its agent started (an interrupt, steered
 * messages), applied as soon as it does.
 */
export class ThreadRun {
  /** `'call'` for a call, `'steer'` for delivering steered messages to an idle thread. */
  constructor(readonly kind: 'call' | 'steer') {}

  readonly #events = new ReplaySubject<AgentEvent>();
  /** An `interrupt()` that came while the thread's agent was still loading. */
  interrupt: { readonly message: Msg | undefined } | undefined;
  /** Messages steered while the thread's agent was still loading: sent after the call's input. */
  readonly steered: Msg[] = [];
  /** Whether the agent's call has started (so interrupts and steering reach it directly). */
  started = false;

  /** Records one event of the run. */
  record(event: AgentEvent): void {
    this.#events.next(event);
  }

  /** Ends the record: followers complete (after the reply, when there was one). */
  end(): void {
    this.#events.complete();
  }

  /** Ends the record with the run's error: followers error with it. */
  fail(error: unknown): void {
    this.#events.error(error);
  }

  /** The run's events from its start, then live, until it ends. */
  follow(): Observable<AgentEvent> {
    return this.#events.asObservable();
  }
}
