import {
  type Attributes,
  type Context,
  context,
  isSpanContextValid,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type {
  Agent,
  ErrorEvent,
  HookEvent,
  MemoryRecallEvent,
  MemoryWriteEvent,
  ModelOptions,
  ModelResponseInfo,
  Msg,
  PostActingEvent,
  PostCallEvent,
  PreActingEvent,
  PreCallEvent,
  PreReasoningEvent,
  PreSummaryEvent,
  Usage,
} from '@rxagent/core';
import { toolOutputText, usageCacheRatio } from '@rxagent/core';
import type { CallSpans } from './callSpans.js';
import { GenAi } from './genAiAttributes.js';
import { genAiMessages } from './genAiMessages.js';

/** What `AgentTracer` needs to know besides the events. */
export interface AgentTracerSettings {
  readonly tracer: Tracer;
  readonly captureContent: boolean;
  readonly providerName: string | undefined;
}

/**
 * Turns one agent's hook events into spans. Calls are keyed by agent (an agent runs one
 * call at a time), never by the async context, because RxJS continues a call from timers,
 * sockets and promises that AsyncLocalStorage does not tie back to the call: only the call
 * span's *parent* is taken from the active context, when the call starts.
 */
export class AgentTracer {
  readonly #calls = new WeakMap<Agent, CallSpans>();
  readonly #tracer: Tracer;
  readonly #captureContent: boolean;
  readonly #providerName: string | undefined;

  constructor(settings: AgentTracerSettings) {
    this.#tracer = settings.tracer;
    this.#captureContent = settings.captureContent;
    this.#providerName = settings.providerName;
  }

  /** Records `event`; never throws for a well-formed event and never changes it. */
  handle(event: HookEvent): void {
    switch (event.type) {
      case 'preCall':
        this.#startCall(event);
        break;
      case 'preReasoning':
      case 'preSummary':
        this.#startChat(event);
        break;
      case 'postReasoning':
      case 'postSummary':
        this.#endChat(event.agent, event.reply, event);
        break;
      case 'preActing':
        this.#startTool(event);
        break;
      case 'postActing':
        this.#endTool(event);
        break;
      case 'postCall':
        this.#endCall(event);
        break;
      case 'error':
        this.#failCall(event);
        break;
      case 'memoryRecall':
      case 'memoryWrite':
        this.#memorySpan(event);
        break;
      default:
        break;
    }
  }

  /**
   * The OTel context of `agent`'s call in flight (its call span active), or of one of its
   * tool runs when `toolCallId` names one in flight; `undefined` when there is none.
   */
  contextOf(agent: Agent, toolCallId?: string): Context | undefined {
    const call = this.#calls.get(agent);
    if (call === undefined) return undefined;
    const tool = toolCallId === undefined ? undefined : call.tools.get(toolCallId);
    return tool === undefined ? call.context : trace.setSpan(call.context, tool);
  }

  /**
   * A `memory_recall` or `memory_write` span lasting the event's `ms`, under the agent's
   * call span (an observer's write after the reply, when the call span has ended, under the
   * active context), with the keys and scores, the source and the observer's tokens.
   */
  #memorySpan(event: MemoryRecallEvent | MemoryWriteEvent): void {
    const call = this.#calls.get(event.agent);
    const parent = call?.context ?? context.active();
    const end = Date.now();
    const attributes: Attributes = {
      [GenAi.operationName]: event.type === 'memoryRecall' ? 'memory_recall' : 'memory_write',
      [GenAi.agentName]: event.agent.name,
      'rxagent.memory.namespace': event.namespace.join('/'),
      'rxagent.memory.source': event.source,
    };
    if (event.type === 'memoryRecall') {
      attributes['rxagent.memory.keys'] = event.items.map((item) => item.key);
      attributes['rxagent.memory.scores'] = event.items.map((item) => item.score);
    } else {
      attributes['rxagent.memory.keys'] = [...event.keys];
      if (event.usage !== undefined) {
        attributes[GenAi.usageInputTokens] = event.usage.inputTokens;
        attributes[GenAi.usageOutputTokens] = event.usage.outputTokens;
      }
    }
    const name = event.type === 'memoryRecall' ? 'memory_recall' : 'memory_write';
    const span = this.#tracer.startSpan(
      `${name} ${event.agent.name}`,
      { kind: SpanKind.INTERNAL, attributes, startTime: end - event.ms },
      parent,
    );
    if (event.type === 'memoryWrite' && event.error !== undefined)
      span.setStatus({ code: SpanStatusCode.ERROR, message: event.error });
    span.end(end);
  }

  #startCall(event: PreCallEvent): void {
    const { agent } = event;
    const stale = this.#calls.get(agent);
    // A call abandoned by unsubscribing fires no postCall or error event: close it now.
    if (stale !== undefined) {
      endChildren(stale, { [GenAi.cancelled]: true });
      stale.span.setAttribute(GenAi.cancelled, true);
      stale.span.end();
    }
    // A call made by another agent's tool (agent.asTool()) nests under that tool's span.
    const { caller } = event;
    const parent =
      (caller && this.contextOf(caller.agent as Agent, caller.toolCallId)) ?? context.active();
    const attributes: Attributes = {
      [GenAi.operationName]: 'invoke_agent',
      [GenAi.agentName]: agent.name,
      [GenAi.agentId]: agent.id,
    };
    if (agent.description !== '') attributes[GenAi.agentDescription] = agent.description;
    if (this.#providerName !== undefined) attributes[GenAi.providerName] = this.#providerName;
    const model = modelNameOf(agent);
    if (model !== undefined) attributes[GenAi.requestModel] = model;
    const span = this.#tracer.startSpan(
      `invoke_agent ${agent.name}`,
      { kind: SpanKind.INTERNAL, attributes },
      parent,
    );
    if (this.#captureContent && span.isRecording()) {
      span.setAttribute(GenAi.inputMessages, genAiMessages(event.input));
      if (event.systemPrompt !== '')
        span.setAttribute(GenAi.systemInstructions, event.systemPrompt);
    }
    this.#calls.set(agent, {
      span,
      context: trace.setSpan(parent, span),
      live: span.isRecording() || isSpanContextValid(span.spanContext()),
      chat: undefined,
      tools: new Map(),
    });
  }

  #startChat(event: PreReasoningEvent | PreSummaryEvent): void {
    const call = this.#calls.get(event.agent);
    if (call === undefined || !call.live) return;
    if (call.chat !== undefined) call.chat.end();
    const model = modelNameOf(event.agent);
    const attributes: Attributes = { [GenAi.operationName]: 'chat' };
    if (model !== undefined) attributes[GenAi.requestModel] = model;
    if (this.#providerName !== undefined) attributes[GenAi.providerName] = this.#providerName;
    if (event.type === 'preReasoning') addRequestOptions(attributes, event.options);
    const span = this.#tracer.startSpan(
      model === undefined ? 'chat' : `chat ${model}`,
      { kind: SpanKind.CLIENT, attributes },
      call.context,
    );
    if (this.#captureContent && span.isRecording()) {
      span.setAttribute(GenAi.inputMessages, genAiMessages(event.messages));
      if (event.systemPrompt !== '')
        span.setAttribute(GenAi.systemInstructions, event.systemPrompt);
    }
    call.chat = span;
  }

  #endChat(agent: Agent, reply: Msg, info: ModelResponseInfo): void {
    const call = this.#calls.get(agent);
    const span = call?.chat;
    if (call === undefined || span === undefined) return;
    call.chat = undefined;
    if (span.isRecording()) {
      if (info.finishReason !== undefined) {
        span.setAttribute(GenAi.responseFinishReasons, [info.finishReason]);
      }
      if (info.usage !== undefined) {
        span.setAttribute(GenAi.usageInputTokens, info.usage.inputTokens);
        span.setAttribute(GenAi.usageOutputTokens, info.usage.outputTokens);
        const { cacheReadTokens, cacheWriteTokens, cachedInputTokens } = info.usage;
        const cacheRead = cachedInputTokens ?? cacheReadTokens;
        if (cacheRead !== undefined) span.setAttribute(GenAi.usageCacheReadTokens, cacheRead);
        if (cacheWriteTokens !== undefined)
          span.setAttribute(GenAi.usageCacheWriteTokens, cacheWriteTokens);
        setCacheHitRatio(span, info.usage);
      }
      if (info.model !== undefined) span.setAttribute(GenAi.responseModel, info.model);
      const skipped = reply.metadata['fallback'];
      if (skipped !== undefined) span.setAttribute(GenAi.fallbackSkipped, JSON.stringify(skipped));
      if (this.#captureContent) span.setAttribute(GenAi.outputMessages, genAiMessages([reply]));
    }
    span.end();
  }

  #startTool(event: PreActingEvent): void {
    const call = this.#calls.get(event.agent);
    if (call === undefined || !call.live) return;
    const { toolCall } = event;
    const span = this.#tracer.startSpan(
      `execute_tool ${toolCall.name}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          [GenAi.operationName]: 'execute_tool',
          [GenAi.toolName]: toolCall.name,
          [GenAi.toolCallId]: toolCall.id,
          [GenAi.toolType]: 'function',
        },
      },
      call.context,
    );
    if (this.#captureContent && span.isRecording()) {
      span.setAttribute(GenAi.toolCallArguments, JSON.stringify(toolCall.input));
    }
    call.tools.get(toolCall.id)?.end();
    call.tools.set(toolCall.id, span);
  }

  #endTool(event: PostActingEvent): void {
    const call = this.#calls.get(event.agent);
    const span = call?.tools.get(event.result.id);
    if (call === undefined || span === undefined) return;
    call.tools.delete(event.result.id);
    const { result } = event;
    if (event.error !== undefined) {
      // The tool threw: the span records the error itself (type, message, stack).
      markFailed(span, event.error, describeError(event.error));
    } else if (result.isError === true) {
      const text = toolOutputText(result);
      if (text.startsWith('[interrupted]')) span.setAttribute(GenAi.interrupted, true);
      else {
        span.setAttribute(GenAi.errorType, 'tool_error');
        span.setStatus({ code: SpanStatusCode.ERROR, message: text.slice(0, 500) });
      }
    }
    if (this.#captureContent && span.isRecording()) {
      span.setAttribute(GenAi.toolCallResult, toolOutputText(result));
    }
    span.end();
  }

  #endCall(event: PostCallEvent): void {
    const call = this.#calls.get(event.agent);
    if (call === undefined) return;
    this.#calls.delete(event.agent);
    const { reply } = event;
    const interrupted = reply.metadata['interrupted'] === true;
    endChildren(call, interrupted ? { [GenAi.interrupted]: true } : {});
    const { span } = call;
    if (span.isRecording()) {
      if (interrupted) span.setAttribute(GenAi.interrupted, true);
      const reason = reply.metadata['generateReason'];
      if (typeof reason === 'string') span.setAttribute(GenAi.generateReason, reason);
      const usage = reply.metadata['usage'];
      if (typeof usage === 'object' && usage !== null && !Array.isArray(usage)) {
        const { inputTokens, outputTokens, cachedInputTokens } = usage;
        if (typeof inputTokens === 'number') span.setAttribute(GenAi.usageInputTokens, inputTokens);
        if (typeof outputTokens === 'number') {
          span.setAttribute(GenAi.usageOutputTokens, outputTokens);
        }
        if (typeof cachedInputTokens === 'number') {
          span.setAttribute(GenAi.usageCacheReadTokens, cachedInputTokens);
          setCacheHitRatio(span, usage as unknown as Usage);
        }
      }
      if (this.#captureContent) span.setAttribute(GenAi.outputMessages, genAiMessages([reply]));
    }
    span.end();
  }

  #failCall(event: ErrorEvent): void {
    // A call that failed before this hook saw its preCall (an earlier hook threw) still
    // gets its span, so no failure goes unrecorded.
    if (!this.#calls.has(event.agent))
      this.#startCall({ type: 'preCall', agent: event.agent, input: [], systemPrompt: '' });
    const call = this.#calls.get(event.agent);
    if (call === undefined) return;
    this.#calls.delete(event.agent);
    const failure = describeError(event.error);
    // The model request or tool runs in flight failed with the call.
    if (call.chat !== undefined) markFailed(call.chat, event.error, failure);
    for (const tool of call.tools.values()) markFailed(tool, event.error, failure);
    endChildren(call, {});
    markFailed(call.span, event.error, failure);
    call.span.end();
  }
}

/** Ends the call's request and tool spans still open, adding `attributes` to each. */
function endChildren(call: CallSpans, attributes: Attributes): void {
  if (call.chat !== undefined) {
    call.chat.setAttributes(attributes);
    call.chat.end();
    call.chat = undefined;
  }
  for (const tool of call.tools.values()) {
    tool.setAttributes(attributes);
    tool.end();
  }
  call.tools.clear();
}

function markFailed(span: Span, error: unknown, failure: { type: string; message: string }): void {
  span.recordException(error instanceof Error ? error : failure.message);
  span.setAttribute(GenAi.errorType, failure.type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
}

function describeError(error: unknown): { type: string; message: string } {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { type: typeof code === 'string' ? code : error.name, message: error.message };
  }
  return { type: '_OTHER', message: String(error) };
}

function addRequestOptions(attributes: Attributes, options: ModelOptions): void {
  if (options.temperature !== undefined) attributes[GenAi.requestTemperature] = options.temperature;
  if (options.topP !== undefined) attributes[GenAi.requestTopP] = options.topP;
  if (options.maxTokens !== undefined) attributes[GenAi.requestMaxTokens] = options.maxTokens;
  if (options.seed !== undefined) attributes[GenAi.requestSeed] = options.seed;
  if (options.stop !== undefined) attributes[GenAi.requestStopSequences] = options.stop;
}

/** The model name of an agent that has a `model` (a ReActAgent), read without depending on it. */
function modelNameOf(agent: Agent): string | undefined {
  const name = (agent as { model?: { modelName?: unknown } }).model?.modelName;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/** `rxagent.usage.cache_hit_ratio` of a span whose usage says how much input a cache served. */
function setCacheHitRatio(span: Span, usage: Usage): void {
  const ratio = usageCacheRatio(usage);
  if (ratio !== undefined) span.setAttribute(GenAi.usageCacheHitRatio, ratio);
}
