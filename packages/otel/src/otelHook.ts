import { type Context, type Tracer, trace } from '@opentelemetry/api';
import { type Agent, checkOptions, type Hook, type HookEventType } from '@rxagent/core';
import { AgentTracer } from './agentTracer.js';

/** Options of `otelHook`. */
export interface OtelHookOptions {
  /** Where spans go (default: the global tracer provider's `@rxagent/otel` tracer). */
  readonly tracer?: Tracer;
  /**
   * Record message content: input and output messages, system instructions, tool arguments
   * and results (`gen_ai.input.messages`, ...). Off by default, since prompts and tool data
   * often hold personal or secret data.
   */
  readonly captureContent?: boolean;
  /** `gen_ai.provider.name` on every span, e.g. `'openai'` (omitted when not given). */
  readonly providerName?: string;
  /**
   * The hook's priority (default 1000: after other hooks, so spans record the request and
   * reply as they were sent and returned).
   */
  readonly priority?: number;
}

/** A Hook that traces agent calls; `contextOf` exposes a call's context for manual spans. */
export interface OtelHook extends Hook {
  /**
   * The OpenTelemetry context of `agent`'s call in flight, with its `invoke_agent` span
   * active (or, given the `toolCallId` of a tool run in flight, that `execute_tool` span),
   * or `undefined` when there is none. Run work inside `context.with(...)` to nest its spans
   * there, e.g. a sub-agent called from a tool:
   * `context.with(hook.contextOf(ctx.agent, ctx.toolCallId) ?? context.active(), () => ...)`.
   */
  contextOf(agent: Agent, toolCallId?: string): Context | undefined;
}

/** The events a span records: every one but the per-chunk ones. */
const TRACED_EVENTS: readonly HookEventType[] = [
  'preCall',
  'postCall',
  'preReasoning',
  'postReasoning',
  'preActing',
  'postActing',
  'preSummary',
  'postSummary',
  'memoryRecall',
  'memoryWrite',
  'error',
];

/**
 * A Hook that records OpenTelemetry spans with the GenAI semantic conventions: `invoke_agent
 * <agent>` per call (a child of the context active when the call starts, so pipeline and hub
 * calls nest under the caller's span; a sub-agent called through `agent.asTool()` by an agent
 * this hook also traces nests under that tool call's `execute_tool` span), and under it `chat <model>` per model request and
 * `execute_tool <tool>` per tool call. Attributes: `gen_ai.operation.name`,
 * `gen_ai.agent.name`/`id`, `gen_ai.request.model`, `gen_ai.tool.name`/`call.id`,
 * `gen_ai.usage.input_tokens`/`output_tokens`, `gen_ai.response.finish_reasons`; a failed
 * call sets `ERROR` status, `error.type` and an exception event; an interrupted one
 * `rxagent.interrupted`. Content only with `captureContent`. The hook does not take chunk
 * events (its `events` leaves them out).
 *
 * Install it on one agent (`hooks: [otelHook()]`) or on all (`AgentBase.addSystemHook(otelHook())`).
 * A call abandoned by unsubscribing fires no end event: its spans are ended, marked
 * `rxagent.cancelled`, when that agent's next call starts.
 *
 * @example
 * ```ts
 * const agent = new ReActAgent({ name: 'assistant', sysPrompt, model, hooks: [otelHook({ providerName: 'openai' })] });
 * ```
 */
export function otelHook(options: OtelHookOptions = {}): OtelHook {
  checkOptions(options, ['tracer', 'captureContent', 'providerName', 'priority'], 'otelHook');
  const tracer = options.tracer ?? trace.getTracer('@rxagent/otel', '0.1.0');
  const tracing = new AgentTracer({
    tracer,
    captureContent: options.captureContent === true,
    providerName: options.providerName,
  });
  return {
    name: 'otel',
    priority: options.priority ?? 1000,
    // Per-token events carry nothing a span records: naming the others lets the agent skip
    // building chunk events when no one else wants them.
    events: TRACED_EVENTS,
    onEvent(event) {
      tracing.handle(event);
    },
    contextOf: (agent, toolCallId) => tracing.contextOf(agent, toolCallId),
  };
}
