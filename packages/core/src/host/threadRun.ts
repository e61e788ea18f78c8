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
  constructor(
    readonly kind: 'call' | 'steer',
    recording = true,
  ) {
    this.recording = recording;
  }

  /** The record, made by the first event recorded or the first follower. */
  #events: ReplaySubject<AgentEvent> | undefined;
  /** How the run ended, once it did. */
  #over: { readonly error: unknown; readonly failed: boolean } | undefined;
  /** An `interrupt()` that came while the thread's agent was still loading. */
  interrupt: { readonly message: Msg | undefined } | undefined;
  /** Messages steered while the thread's agent was still loading: sent after the call's input. */
  readonly steered: Msg[] = [];
  /** Whether the agent's call has started (so interrupts and steering reach it directly). */
  started = false;
  /**
   * Whether the run's events are recorded: from its start for a `stream()`, only once a
   * follower attached for a `call()` (which then stays as cheap as the agent's own `call()`
   * while nobody follows it).
   */
  recording: boolean;
  /** Called when the first follower attaches to a run that is not recording yet. */
  onFirstFollow: (() => void) | undefined;

  /** Records one event of the run. */
  record(event: AgentEvent): void {
    if (this.recording) this.#record().next(event);
  }

  /** Ends the record: followers complete (after the reply, when there was one). */
  end(): void {
    this.#over = { error: undefined, failed: false };
    this.#events?.complete();
  }

  /** Ends the record with the run's error: followers error with it. */
  fail(error: unknown): void {
    this.#over = { error, failed: true };
    this.#events?.error(error);
  }

  /**
   * The run's events from its start (from when the first follower came, for a run that was
   * not recording), then live, until it ends.
   */
  follow(): Observable<AgentEvent> {
    if (!this.recording) {
      this.recording = true;
      const start = this.onFirstFollow;
      this.onFirstFollow = undefined;
      start?.();
    }
    return this.#record().asObservable();
  }

  #record(): ReplaySubject<AgentEvent> {
    if (this.#events === undefined) {
      this.#events = new ReplaySubject<AgentEvent>();
      // Ended before anything was recorded or followed: the record ends the same way.
      const over = this.#over;
      if (over?.failed) this.#events.error(over.error);
      else if (over) this.#events.complete();
    }
    return this.#events;
  }
}
