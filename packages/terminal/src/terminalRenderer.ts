import type { AgentEvent } from '@rxagent/core';
import { formatEnd, formatEvent, formatNote, type Rendered } from './formatEvent.js';
import { markErrorRendered } from './renderedErrors.js';
import { initialRenderState, type RenderState } from './renderState.js';
import { styleFor } from './style.js';
import { formatElapsed } from './text.js';

/** Where a renderer writes: a stream, like `process.stdout`. */
export type RenderOut = NodeJS.WritableStream & { readonly isTTY?: boolean };

/** Options of `new TerminalRenderer(...)`. */
export interface TerminalRendererOptions {
  readonly out: RenderOut;
  readonly color: boolean;
  readonly showThinking: boolean;
  /** Milliseconds, for elapsed times. */
  readonly clock: () => number;
  /**
   * Show a waiting indicator (a spinner, the running tools and their elapsed time) on the
   * last line while tools run, redrawn in place every `progressIntervalMs`: only for a TTY.
   */
  readonly progress: boolean;
  /** How often the waiting indicator is redrawn (default 100 ms). */
  readonly progressIntervalMs?: number;
}

const SPINNER = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';
/** Carriage return and erase line: removes the waiting indicator. */
const ERASE_LINE = '\r\u001b[2K';

/**
 * The stateful side of rendering one call at a time (`renderEvents`, `renderHub`): the
 * `RenderState` between events, when each tool call started (its time ends its result line,
 * `← get_weather: Sunny · 0.3 s`), and in TTY mode a waiting indicator while tools run.
 * The indicator is the only text ever redrawn: it is erased before anything else is written,
 * so the rest of the output stays linear. `dispose()` stops its timer.
 */
export class TerminalRenderer {
  readonly #options: TerminalRendererOptions;
  #state: RenderState;
  readonly #running = new Map<string, { readonly name: string; readonly startedAt: number }>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #indicatorShown = false;

  constructor(options: TerminalRendererOptions) {
    this.#options = options;
    this.#state = this.#fresh(options.clock());
  }

  /** The current render state. */
  get state(): RenderState {
    return this.#state;
  }

  /** Starts a new call: fresh state timed from now (running tools are forgotten). */
  reset(): void {
    this.#running.clear();
    this.#stopTimer();
    this.#state = this.#fresh(this.#options.clock());
  }

  /** Writes text that is not an event's (e.g. a header), after erasing the indicator. */
  write(text: string): void {
    if (text === '') return;
    this.#erase();
    this.#options.out.write(text);
  }

  /**
   * Writes a note that is not an event's (a prompt, a hint) on a line of its own: the
   * indicator is erased first and an open stream line closed, then the indicator is redrawn
   * below it, so the note never runs into the spinner or into streamed text.
   */
  note(text: string): void {
    this.#apply(formatNote(this.#state, text));
    this.#updateIndicator();
  }

  /** Renders one event: its text, a tool's elapsed time on its result line, the indicator. */
  event(event: AgentEvent): void {
    const now = this.#options.clock();
    let rendered = formatEvent(event, this.#state, now);
    if (event.type === 'error') markErrorRendered(event.error);
    if (event.type === 'preActing') {
      this.#running.set(event.toolCall.id, { name: event.toolCall.name, startedAt: now });
    } else if (event.type === 'postActing') {
      const started = this.#running.get(event.toolCall.id);
      this.#running.delete(event.toolCall.id);
      if (started !== undefined)
        rendered = withElapsed(rendered, now - started.startedAt, this.#options.color);
    }
    this.#apply(rendered);
    this.#updateIndicator();
  }

  /** Ends the call: closes an open line and prints an error not already shown. */
  end(error?: unknown): void {
    this.#running.clear();
    this.#stopTimer();
    this.#erase();
    this.#apply(formatEnd(this.#state, this.#options.clock(), error));
    if (error !== undefined) markErrorRendered(error);
  }

  /** Stops the indicator's timer and erases it. */
  dispose(): void {
    this.#stopTimer();
    this.#erase();
  }

  #fresh(startedAt: number): RenderState {
    const { color, showThinking } = this.#options;
    return initialRenderState({ color, showThinking, startedAt });
  }

  #apply(rendered: Rendered): void {
    this.#state = rendered.state;
    this.write(rendered.text);
  }

  #erase(): void {
    if (!this.#indicatorShown) return;
    this.#indicatorShown = false;
    this.#options.out.write(ERASE_LINE);
  }

  #updateIndicator(): void {
    if (!this.#options.progress) return;
    if (this.#running.size === 0) {
      this.#stopTimer();
      return;
    }
    this.#draw();
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#draw(), this.#options.progressIntervalMs ?? 100);
      this.#timer.unref?.();
    }
  }

  /** Draws the indicator on the current (empty) line; not while a streamed line is open. */
  #draw(): void {
    const state = this.#state;
    if (this.#running.size === 0 || !state.atLineStart || state.open !== undefined) return;
    const now = this.#options.clock();
    let oldest = now;
    for (const tool of this.#running.values()) oldest = Math.min(oldest, tool.startedAt);
    const names = [...this.#running.values()].map((tool) => tool.name).join(', ');
    const frame = Math.floor((now - oldest) / (this.#options.progressIntervalMs ?? 100));
    const spinner = SPINNER[frame % SPINNER.length];
    const line = `${spinner} ${names} · ${formatElapsed(now - oldest)}`;
    this.#options.out.write(
      `${this.#indicatorShown ? ERASE_LINE : ''}${styleFor(this.#options.color).dim(line)}`,
    );
    this.#indicatorShown = true;
  }

  #stopTimer(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

/** A tool-result rendering with the tool's elapsed time at the end of its (last) line. */
function withElapsed(rendered: Rendered, ms: number, color: boolean): Rendered {
  if (!rendered.text.endsWith('\n')) return rendered;
  const time = styleFor(color).dim(` · ${formatElapsed(ms)}`);
  return { ...rendered, text: `${rendered.text.slice(0, -1)}${time}\n` };
}
