import { checkOptions } from '@rxagent/core';

/**
 * What the renderer remembers between events. Immutable: `formatEvent` returns the next
 * state, so the core stays a pure function that tests drive without a terminal.
 */
export interface RenderState {
  /** Whether output carries ANSI colours. */
  readonly color: boolean;
  /** Whether streamed `thinking` deltas are printed (dimmed). */
  readonly showThinking: boolean;
  /** When the call started (milliseconds, from the renderer's clock). */
  readonly startedAt: number;
  /**
   * The stream the current output belongs to, while one is open: reply text or thinking (a
   * line without its newline yet), or a tool's streamed output (`toolCallId` says whose).
   */
  readonly open: 'text' | 'thinking' | 'tool' | undefined;
  /** The tool call whose streamed output is open (`open === 'tool'`). */
  readonly toolCallId: string | undefined;
  /**
   * Whose stream is open: the path (joined by `/`) of the sub-agent whose text or tool
   * output it is, `undefined` for the streamed agent's own.
   */
  readonly openPath?: string | undefined;
  /**
   * Text sub-agents streamed that the tool running them has not repeated yet, by the path of
   * the agent whose tool it is (an agent used as a tool streams its text as the tool's
   * chunks too, a chunk behind): a chunk that repeats it is not printed twice.
   */
  readonly echo?: Readonly<Record<string, string>> | undefined;
  /** Whether the last character written was a newline (or nothing was written yet). */
  readonly atLineStart: boolean;
  /** The id of the last reply whose text was streamed, so the reply is not printed twice. */
  readonly streamedId: string | undefined;
  /** Whether an `error` event was already printed, so the final error line is not repeated. */
  readonly errorShown: boolean;
}

/** Options of `initialRenderState`. */
export interface RenderStateOptions {
  readonly color?: boolean;
  readonly showThinking?: boolean;
  readonly startedAt?: number;
}

/** The state before the first event: no colour, thinking hidden, started at 0 unless given. */
export function initialRenderState(options: RenderStateOptions = {}): RenderState {
  checkOptions(options, ['color', 'showThinking', 'startedAt'], 'initialRenderState');
  return {
    color: options.color ?? false,
    showThinking: options.showThinking ?? false,
    startedAt: options.startedAt ?? 0,
    open: undefined,
    atLineStart: true,
    toolCallId: undefined,
    streamedId: undefined,
    errorShown: false,
  };
}
