import type { Agent } from '../agent/agent.js';
import type { ToolResultBlock, ToolUseBlock } from '../message/contentBlock.js';
import type { Msg } from '../message/msg.js';
import type { ModelOptions, ToolChoice, ToolSchema } from '../model/chatModel.js';

interface EventBase {
  /** The agent whose call fired the event. */
  readonly agent: Agent;
}

/** Before `doCall`: hooks may replace the call's input and its system prompt. */
export interface PreCallEvent extends EventBase {
  readonly type: 'preCall';
  input: Msg[];
  systemPrompt: string;
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
  /** The reply so far (its text is a string built by appending, never re-copied). */
  readonly accumulated: Msg;
}

/** Ways a hook can end the ReAct loop early (human in the loop). */
export interface Stoppable {
  /** Ends the call after this step, with the reply it reached (human in the loop). */
  stopAgent(): void;
  /** Whether some hook asked to stop. */
  readonly stopRequested: boolean;
}

/** After the model's reply is complete: hooks may replace it before it is stored. */
export interface PostReasoningEvent extends EventBase, Stoppable {
  readonly type: 'postReasoning';
  reply: Msg;
}

/** Before a tool runs: hooks may change `toolCall.input` (the `id` is kept). */
export interface PreActingEvent extends EventBase {
  readonly type: 'preActing';
  toolCall: ToolUseBlock;
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
 * budget ran out). A result its tool produced has none.
 */
export type ToolResultKind = 'duplicate' | 'interrupted' | 'cancelled' | 'not_executed';

/** After a tool ran: hooks may change the result before it is stored (the `id` is kept). */
export interface PostActingEvent extends EventBase, Stoppable {
  readonly type: 'postActing';
  readonly toolCall: ToolUseBlock;
  result: ToolResultBlock;
  /** Set when the framework, not the tool, produced the result (e.g. `duplicate`). */
  readonly resultKind?: ToolResultKind;
}

/** Before the max-iterations summary request. */
export interface PreSummaryEvent extends EventBase {
  readonly type: 'preSummary';
  messages: Msg[];
  systemPrompt: string;
}

/** After the max-iterations summary: hooks may replace it. */
export interface PostSummaryEvent extends EventBase {
  readonly type: 'postSummary';
  reply: Msg;
}

/** A call failed with `error` (not an interrupt). Read-only: it cannot be replaced. */
export interface ErrorEvent extends EventBase {
  readonly type: 'error';
  readonly error: unknown;
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
  | ErrorEvent;

/** The `type` of a hook event. */
export type HookEventType = HookEvent['type'];

/** The event of a given `type`. */
export type HookEventOf<T extends HookEventType> = Extract<HookEvent, { type: T }>;
