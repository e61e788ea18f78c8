import { type AgentEvent, checkOptions } from '@rxagent/core';
import { type MonoTypeOperatorFunction, Observable } from 'rxjs';
import { shouldColor } from './style.js';
import { TerminalRenderer } from './terminalRenderer.js';

/** The keys of `RenderOptions` (internal: not exported from the package). */
export const RENDER_KEYS = ['out', 'color', 'showThinking', 'clock', 'progress', 'notes'] as const;

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
  /**
   * While tools run, show a waiting indicator on the last line (a spinner, the running
   * tools and their elapsed time), redrawn in place and erased before any other output.
   * Default: when `out` is a TTY.
   */
  readonly progress?: boolean;
  /**
   * Text to print between the events (a prompt, a hint), each value on a line of its own:
   * the waiting indicator is erased first and redrawn after, and an open stream line is
   * closed, so a note never runs into them. Subscribed for as long as the rendering lasts.
   * Write through this rather than to `out` directly while a call renders.
   */
  readonly notes?: Observable<string>;
}

/**
 * An operator that renders the events of `agent.stream()` to a terminal as they pass, and
 * forwards every event unchanged: streamed tokens as they arrive, each tool call (name and
 * compact JSON arguments) and its result (first line; errors marked), hook decisions worth
 * seeing (judge verdicts and feedback, forced tool choice, reminders, interrupts, human-in-
 * the-loop stops), then a final line with the elapsed time and token usage. Each tool
 * result line ends with the time that tool took; in a TTY a waiting indicator shows which
 * tools are running and for how long.
 *
 * Output is linear: each token is written once, nothing but the waiting indicator is redrawn. Cold like its source:
 * each subscription renders its own call, timed from the moment of subscription. Emits what
 * the source emits, completes and errors with it (an error is printed first, unless an
 * `error` event already showed it); unsubscribing unsubscribes the source (cancelling the
 * call) and ends an open output line. An error it printed is recognized by
 * `isErrorRendered(error)`, so a program's top-level handler can avoid printing it twice.
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
  checkOptions(options, RENDER_KEYS, 'renderEvents');
  return (source) =>
    new Observable<AgentEvent>((subscriber) => {
      const out = options.out ?? process.stdout;
      const renderer = new TerminalRenderer({
        out,
        color: options.color ?? shouldColor(out),
        showThinking: options.showThinking ?? false,
        clock: options.clock ?? Date.now,
        progress: options.progress ?? out.isTTY === true,
      });
      // Notes first: one pushed while an event is handled (in a `tap` after this operator)
      // must find the renderer listening.
      const notes = options.notes?.subscribe({
        next: (text) => renderer.note(text),
        error: (error: unknown) => subscriber.error(error),
      });
      const subscription = source.subscribe({
        next: (event) => {
          renderer.event(event);
          subscriber.next(event);
        },
        error: (error: unknown) => {
          renderer.end(error);
          subscriber.error(error);
        },
        complete: () => {
          renderer.end();
          subscriber.complete();
        },
      });
      return () => {
        notes?.unsubscribe();
        subscription.unsubscribe();
        renderer.end();
      };
    });
}
