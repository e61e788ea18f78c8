import { Observable, type Subscriber, type TeardownLogic } from 'rxjs';
import type { Msg } from '../message/msg.js';
import type { AgentEvent } from './agentEvent.js';
import type { CallOptions } from './callOptions.js';
import type { PhaseSink } from './phases.js';
import { streamEventTypes } from './streamEventTypes.js';
import type { StreamOptions } from './streamOptions.js';

/**
 * The `stream(input, options)` of agent `agentName`: `start(given, sink, replies, types)`
 * starts the call on the call options `given` (as the subscribe function of `call()`'s
 * Observable would, returning its teardown) with a sink for the snapshots of its events of
 * `types` (all when undefined); they are emitted as they come, then `{ type: 'reply', msg }`,
 * then completion. One Observable: the call's phases emit into this subscriber, not through
 * a `call()` subscribed inside it. A bad `options.events` errors the stream on subscription.
 */
export function streamOf(
  agentName: string,
  options: StreamOptions,
  start: (
    given: CallOptions,
    sink: (event: AgentEvent) => void,
    replies: PhaseSink<Msg>,
    types: ReadonlySet<string> | undefined,
  ) => TeardownLogic,
): Observable<AgentEvent> {
  const { events, ...callOptions } = options;
  const given = events === undefined ? options : callOptions;
  return new Observable<AgentEvent>((subscriber) => {
    const types =
      events === undefined ? undefined : streamEventTypes(`${agentName}.stream()`, events);
    return start(given, (event) => subscriber.next(event), new ReplyEvents(subscriber), types);
  });
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
