import { Observable, type Subscriber, type TeardownLogic } from 'rxjs';
import type { Msg } from '../message/msg.js';
import type { AgentEvent } from './agentEvent.js';
import type { PhaseSink } from './phases.js';

/**
 * The `stream()` of a call: `start(sink, replies)` starts the call (as the subscribe function
 * of `call()`'s Observable would, returning its teardown) with a sink for its event snapshots;
 * they are emitted as they come, then `{ type: 'reply', msg }`, then completion. One
 * Observable: the call's phases emit into this subscriber, not through a `call()` inside it.
 */
export function streamOf(
  start: (sink: (event: AgentEvent) => void, replies: PhaseSink<Msg>) => TeardownLogic,
): Observable<AgentEvent> {
  return new Observable<AgentEvent>((subscriber) =>
    start((event) => subscriber.next(event), new ReplyEvents(subscriber)),
  );
}

/** The call's reply as the stream's last event, then its end (or its error). */
class ReplyEvents implements PhaseSink<Msg> {
  constructor(private readonly subscriber: Subscriber<AgentEvent>) {}

  next(msg: Msg): void {
    this.subscriber.next(Object.freeze({ type: 'reply', msg }));
  }

  error(error: unknown): void {
    this.subscriber.error(error);
  }

  complete(): void {
    this.subscriber.complete();
  }
}
