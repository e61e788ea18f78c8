import type { AgentEvent } from '@rxagent/core';
import { type MonoTypeOperatorFunction, Observable } from 'rxjs';
import { formatEnd, formatEvent, type Rendered } from './formatEvent.js';
import { initialRenderState, type RenderState } from './renderState.js';
import { shouldColor } from './style.js';

/** Options of `renderEvents`. */
export interface RenderOptions {
  /** Where to write (default `process.stdout`). */
  readonly out?: NodeJS.WritableStream & { readonly isTTY?: boolean };
  /** ANSI colours (default: when `out` is a TTY and `NO_COLOR` is not set). */
  readonly color?: boolean;
  /** Print the model's streamed thinking, dimmed (default false). */
  readonly showThinking?: boolean;
  /** Milliseconds for the elapsed time (default `Date.now`); injectable for tests. */
  readonly clock?: () => number;
}

/**
 * An operator that renders the events of `agent.stream()` to a terminal as they pass, and
 * forwards every event unchanged: streamed tokens as they arrive, each tool call (name and
 * compact JSON arguments) and its result (first line; errors marked), hook decisions worth
 * seeing (judge verdicts and feedback, forced tool choice, reminders, interrupts, human-in-
 * the-loop stops), then a final line with the elapsed time and token usage.
 *
 * Output is linear: each token is written once, nothing is redrawn. Cold like its source:
 * each subscription renders its own call, timed from the moment of subscription. Emits what
 * the source emits, completes and errors with it (an error is printed first, unless an
 * `error` event already showed it); unsubscribing unsubscribes the source (cancelling the
 * call) and ends an open output line.
 *
 * @example
 * ```ts
 * const reply = await lastValueFrom(
 *   agent.stream(userMsg('Weather in Shanghai tomorrow?')).pipe(
 *     renderEvents(),
 *     filter((event) => event.type === 'reply'),
 *   ),
 * );
 * ```
 */
export function renderEvents(options: RenderOptions = {}): MonoTypeOperatorFunction<AgentEvent> {
  return (source) =>
    new Observable<AgentEvent>((subscriber) => {
      const out = options.out ?? process.stdout;
      const clock = options.clock ?? Date.now;
      let state: RenderState = initialRenderState({
        color: options.color ?? shouldColor(out),
        showThinking: options.showThinking ?? false,
        startedAt: clock(),
      });
      const write = (rendered: Rendered): void => {
        state = rendered.state;
        if (rendered.text !== '') out.write(rendered.text);
      };
      const subscription = source.subscribe({
        next: (event) => {
          write(formatEvent(event, state, clock()));
          subscriber.next(event);
        },
        error: (error: unknown) => {
          write(formatEnd(state, clock(), error));
          subscriber.error(error);
        },
        complete: () => {
          write(formatEnd(state, clock()));
          subscriber.complete();
        },
      });
      return () => {
        subscription.unsubscribe();
        write(formatEnd(state, clock()));
      };
    });
}
