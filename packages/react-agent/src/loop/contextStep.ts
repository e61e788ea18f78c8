import {
  applyCompression,
  type ContextCompression,
  ContextWindowError,
  compressContext,
  estimateTokens,
  type Formatter,
  type Msg,
  type ToolSchema,
} from '@rxagent/core';
import { defer, type Observable, tap } from 'rxjs';
import type { ContextSettings } from './contextOptions.js';
import type { ReActCallState } from './reactCallState.js';

/** What the context step needs of its agent. */
export interface ContextStepSetup {
  readonly context: ContextSettings;
  readonly formatter: Formatter;
  /** The model the request goes to (its reasoning sent back counts). */
  readonly modelName?: string;
}

/** The request the context step sizes, when it is not a reasoning step's. */
export interface ContextStepRequest {
  /** The tool schemas the request sends (default: the call's toolkit's). */
  readonly tools?: readonly ToolSchema[];
  /** Tokens the request adds beyond memory (e.g. an instruction sent, not stored). */
  readonly reserve?: number;
  /** No request of the call was sent yet: a `ContextWindowError` then takes the input out. */
  readonly firstRequest?: boolean;
}

/**
 * Whether the call's next request already fits `context.maxTokens`: one count, no
 * Observable, so a step whose request fits (most of them) pays only for counting. When it
 * does not, run `contextStep`.
 */
export function contextFits(
  state: ReActCallState,
  setup: ContextStepSetup,
  request: ContextStepRequest = {},
): boolean {
  const settings = setup.context;
  const count = settings.countTokens ?? estimateTokens;
  const tokens = count({
    systemPrompt: state.context.systemPrompt,
    messages: state.transcript.messages(),
    tools: request.tools ?? state.toolkit.schemas(),
    formatter: setup.formatter,
    selfName: state.agentName,
    ...(setup.modelName !== undefined && { model: setup.modelName }),
  });
  return tokens <= budget(settings, request);
}

/**
 * Makes the call's next request fit `context.maxTokens` (see `compressContext`): counts
 * the system prompt, memory and tool schemas; when they count more, runs preCompress and
 * postCompress hooks (the call's input, or for a resumed call the latest user message, is
 * never replaced: `Transcript.taskIds`) through the call's `notify`, has the transcript put the summary (or
 * drop marker) in place of the oldest messages, and adds the summary request's usage to
 * the call. Cold; emits what it decided, then completes.
 *
 * Errors with `ContextWindowError` when the request cannot be made to fit; nothing is sent
 * then, and memory is left as it was — before the call's first request (`firstRequest`),
 * also without the input the call stored (unless it stored tool results), so the agent is
 * not left holding a message it can never send.
 * Unsubscribing cancels the summary request.
 */
export function contextStep(
  state: ReActCallState,
  setup: ContextStepSetup,
  request: ContextStepRequest = {},
): Observable<ContextCompression> {
  return defer(() => {
    const { context, transcript } = state;
    const settings = setup.context;
    return compressContext({
      agent: context.agent,
      messages: transcript.messages(),
      systemPrompt: context.systemPrompt,
      tools: request.tools ?? state.toolkit.schemas(),
      maxTokens: budget(settings, request),
      keepRecent: settings.keepRecent,
      pinned: transcript.taskIds(),
      strategy: settings.strategy,
      summaryModel: settings.summaryModel,
      ...(settings.countTokens !== undefined && { countTokens: settings.countTokens }),
      notify: (event) => context.notify(event),
      signal: context.signal,
      formatter: setup.formatter,
      selfName: state.agentName,
      ...(setup.modelName !== undefined && { model: setup.modelName }),
    }).pipe(
      tap({
        next: (result) => apply(state, result, settings.summaryModel.modelName),
        error: (error: unknown) => {
          if (request.firstRequest === true) forgetInput(state, error);
        },
      }),
    );
  });
}

/** The most tokens the memory part of the request may count. */
function budget(settings: ContextSettings, request: ContextStepRequest): number {
  return Math.max(1, settings.maxTokens - (request.reserve ?? 0));
}

function apply(state: ReActCallState, result: ContextCompression, summaryModelName: string): void {
  if (!result.compressed) return;
  const { transcript } = state;
  const next = applyCompression(transcript.messages(), result.replaced, result.summary);
  // Memory changed under the compression (replaced or cleared): leave it as it is now.
  if (next !== undefined) transcript.replace(next);
  state.meter.addRequest(result.usage, summaryModelName);
}

/**
 * Before the call's first request, a request that cannot fit takes the call's input back
 * out — unless the call stored tool results (tools ran, or were supplied): those stay.
 */
function forgetInput(state: ReActCallState, error: unknown): void {
  if (!(error instanceof ContextWindowError)) return;
  const { transcript } = state;
  const added = transcript.messages().slice(transcript.startLength);
  if (added.length === 0 || added.some(isRealResult)) return;
  transcript.delete(added.map((msg) => msg.id));
}

/** A tool result other than the `[cancelled]` ones a new input gives pending calls. */
function isRealResult(msg: Msg): boolean {
  return msg.role === 'tool' && msg.metadata['resultKind'] !== 'cancelled';
}
