import type { Agent } from '../agent/agent.js';
import type { CallerRef } from '../agent/callOptions.js';
import type { JsonObject } from '../json.js';
import type { ToolResultBlock, ToolUseBlock } from '../message/contentBlock.js';
import type { Msg } from '../message/msg.js';
import type { ModelOptions, ToolChoice, ToolSchema, Usage } from '../model/chatModel.js';

interface EventBase {
  /** The agent whose call fired the event. */
  readonly agent: Agent;
  /** Who is asking: the call's `callContext` option (frozen), when it was given. */
  readonly callContext?: JsonObject;
}

/** Before `doCall`: hooks may replace the call's input and its system prompt. */
export interface PreCallEvent extends EventBase {
  readonly type: 'preCall';
  input: Msg[];
  systemPrompt: string;
  /** `true` when `recover()` continues a call a stopped process left unfinished. */
  readonly recovered?: boolean;
  /** The agent and tool call this call runs inside (`CallOptions.caller`), if any. */
  readonly caller?: CallerRef;
}

/** After `doCall` (or the interrupt reply): hooks may replace the reply. */
export interface PostCallEvent extends EventBase {
  readonly type: 'postCall';
  reply: Msg;
}

/**
 * Before a model request. `messages` is what is about to be formatted (memory plus anything
 * hooks add, without the system prompt); every change applies to this request only.
 */
export interface PreReasoningEvent extends EventBase {
  readonly type: 'preReasoning';
  messages: Msg[];
  systemPrompt: string;
  tools: ToolSchema[];
  toolChoice: ToolChoice | undefined;
  options: ModelOptions;
}

/** A streamed piece of the model's reply. Read-only. */
export interface ReasoningChunkEvent extends EventBase {
  readonly type: 'reasoningChunk';
  readonly delta: {
    readonly text?: string;
    readonly thinking?: string;
    readonly toolCall?: {
      readonly index: number;
      readonly id?: string;
      readonly name?: string;
      readonly arguments?: string;
    };
  };
  /**
   * The reply so far: its thinking, its text (a string built by appending, never re-copied)
   * and a `tool_use` block for every tool call begun so far, whose `input` is `{}` until that
   * call's arguments are complete.
   */
  readonly accumulated: Msg;
}

/** Ways a hook can end the ReAct loop early (human in the loop). */
export interface Stoppable {
  /** Ends the call after this step, so a human can review it and resume the agent later. */
  stopAgent(): void;
  /** Whether some hook asked to stop. */
  readonly stopRequested: boolean;
}

/** What the model reported about one request, when it reported it. Read-only. */
export interface ModelResponseInfo {
  /** Token usage of this request alone. */
  readonly usage?: Usage;
  /** Why the model stopped (`'stop'`, `'tool_calls'`, `'length'`, ...), as it said. */
  readonly finishReason?: string;
  /** The model that answered, when it is not the one asked (a fallback chain's choice). */
  readonly model?: string;
}

/**
 * After the model's reply is complete: hooks may replace it before it is stored. `usage`
 * and `finishReason` describe this request (for tracing and metering).
 */
export interface PostReasoningEvent extends EventBase, Stoppable, ModelResponseInfo {
  readonly type: 'postReasoning';
  reply: Msg;
}

/**
 * Before a tool runs: hooks may change `toolCall.input` (the `id` is kept), or refuse the
 * call with `deny(reason)`.
 */
export interface PreActingEvent extends EventBase {
  readonly type: 'preActing';
  toolCall: ToolUseBlock;
  /**
   * The tool does not run: its result is the error result `[denied] <reason>` (with
   * `resultKind: 'denied'`) and the loop goes on. The last reason given wins.
   */
  deny(reason: string): void;
  /** The reason of `deny()`, once a hook called it. */
  readonly deniedReason?: string;
}

/** A streamed piece of a tool's output. Read-only. */
export interface ActingChunkEvent extends EventBase {
  readonly type: 'actingChunk';
  readonly toolCall: ToolUseBlock;
  readonly chunk: ToolResultBlock['output'];
}

/**
 * Why a tool result was written by the framework rather than by its tool, recorded as the
 * tool Msg's `metadata.resultKind`: `duplicate` (an identical call in the same agent call
 * was answered instead of run), `interrupted` (the call was cut before the tool finished),
 * `cancelled` (a new message arrived while the call was pending), `not_executed` (the step
 * budget ran out), `denied` (a preActing hook or a human decision refused it), `in_doubt`
 * (the process stopped while the tool ran, so its outcome is unknown; see durable runs). A
 * result its tool produced has none.
 */
export type ToolResultKind =
  | 'duplicate'
  | 'interrupted'
  | 'cancelled'
  | 'not_executed'
  | 'denied'
  | 'in_doubt';

/** After a tool ran: hooks may change the result before it is stored (the `id` is kept). */
export interface PostActingEvent extends EventBase, Stoppable {
  readonly type: 'postActing';
  readonly toolCall: ToolUseBlock;
  result: ToolResultBlock;
  /** Set when the framework, not the tool, produced the result (e.g. `duplicate`). */
  readonly resultKind?: ToolResultKind;
  /**
   * The error the tool threw (or its Promise rejected, or its Observable errored with) when
   * `result` is the error result made from it: its name, message and stack for logging and
   * tracing, while the model gets only `result`'s text. Never stored (memory and state stay
   * JSON). Absent for every other result.
   */
  readonly error?: unknown;
  /**
   * Metadata for the tool-result Msg that stores `result`: a hook sets or extends it (assign
   * a new object, e.g. `{ ...event.metadata, redactions: 2 }`), and the agent merges it into
   * that Msg's `metadata`. Absent until a hook sets it.
   */
  metadata?: JsonObject;
}

/** Before the max-iterations summary request. */
export interface PreSummaryEvent extends EventBase {
  readonly type: 'preSummary';
  messages: Msg[];
  systemPrompt: string;
}

/** After the max-iterations summary: hooks may replace it. `usage`/`finishReason` as in postReasoning. */
export interface PostSummaryEvent extends EventBase, ModelResponseInfo {
  readonly type: 'postSummary';
  reply: Msg;
}

/**
 * Before the oldest messages of memory are replaced by a summary (or a drop marker) because
 * the next request would not fit the context window. Read-only.
 */
export interface PreCompressEvent extends EventBase {
  readonly type: 'preCompress';
  /** The messages about to be replaced, oldest first. */
  readonly messages: readonly Msg[];
  /** What the request (system prompt, messages, tool schemas) counts before compression. */
  readonly tokens: number;
}

/**
 * After the replacement message was made, before memory changes: hooks may replace
 * `summary` (the agent then counts the request again).
 */
export interface PostCompressEvent extends EventBase {
  readonly type: 'postCompress';
  /** The message that replaces the oldest ones (user role, `name: 'system'`). */
  summary: Msg;
  /** How many messages it replaces. */
  readonly removed: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
}

/**
 * A guardrail gave its verdict (one event per guardrail asked, in order). Read-only: the
 * verdict already applied. `tripped` is true when it blocked; `replaced` when it replaced
 * the content (a redaction) and the run went on.
 */
export interface GuardrailEvent extends EventBase {
  readonly type: 'guardrail';
  readonly guardrail: string;
  readonly stage: 'input' | 'output' | 'toolCall' | 'toolResult';
  readonly tripped: boolean;
  readonly replaced: boolean;
  readonly reason?: string;
  /** `toolCall` / `toolResult`: the tool call's id. */
  readonly toolCallId?: string;
}

/** A call failed with `error` (not an interrupt). Read-only: it cannot be replaced. */
export interface ErrorEvent extends EventBase {
  readonly type: 'error';
  readonly error: unknown;
}

/** One item long-term memory recalled: its key and its relevance (higher is better). */
export interface RecalledItem {
  readonly key: string;
  readonly score: number;
}

/**
 * Long-term memory was read for the call: once, before its first model request (the
 * `static` and `both` modes). Read-only.
 */
export interface MemoryRecallEvent extends EventBase {
  readonly type: 'memoryRecall';
  /** The namespace read (from the call's `callContext`). */
  readonly namespace: readonly string[];
  /** What recall searched for (the call's input text, or the tool's query). */
  readonly query: string;
  /** What recall found, best first. */
  readonly items: readonly RecalledItem[];
  /** Whether working memory was found (static recall only). */
  readonly workingMemory: boolean;
  /** Milliseconds the store round trip took. */
  readonly ms: number;
  /** `'static'`: the one read before the call's first request. */
  readonly source: 'static';
}

/**
 * The observer of long-term memory answered (inside the call) or its facts were written
 * (after the reply was emitted). Read-only.
 */
export interface MemoryWriteEvent extends EventBase {
  readonly type: 'memoryWrite';
  readonly namespace: readonly string[];
  /** The keys written (or forgotten). */
  readonly keys: readonly string[];
  /** Who wrote: the observer (the memory tools' writes are their tool results). */
  readonly source: 'observer';
  /**
   * `'observed'`: the observer answered, inside the call (its `usage`; `keys` empty, the
   * facts wait in the agent's state); `'written'`: after the reply was emitted, the facts
   * were written (`keys`), or the write failed (`error`: they stay pending).
   */
  readonly phase: 'observed' | 'written';
  /** Milliseconds the writes took. */
  readonly ms: number;
  /** The observer model's token usage (counted in the call's usage and budget). */
  readonly usage?: Usage;
  /** Why the observer or the write failed, when it did (unwritten facts stay pending). */
  readonly error?: string;
}

/** Every event a hook can receive, discriminated by `type`. */
export type HookEvent =
  | PreCallEvent
  | PostCallEvent
  | PreReasoningEvent
  | ReasoningChunkEvent
  | PostReasoningEvent
  | PreActingEvent
  | ActingChunkEvent
  | PostActingEvent
  | PreSummaryEvent
  | PostSummaryEvent
  | PreCompressEvent
  | PostCompressEvent
  | GuardrailEvent
  | MemoryRecallEvent
  | MemoryWriteEvent
  | ErrorEvent;

/** The `type` of a hook event. */
export type HookEventType = HookEvent['type'];

/** The event of a given `type`. */
export type HookEventOf<T extends HookEventType> = Extract<HookEvent, { type: T }>;
