import type { Observable } from 'rxjs';
import type { JsonObject } from '../json.js';
import type { ChatMessage } from './chatMessage.js';

/** An OpenAI function-tool schema, as sent in a request's `tools`. */
export interface ToolSchema {
  type: 'function';
  function: { name: string; description: string; parameters: JsonObject; strict?: boolean };
}

/** Which tool the model must (or must not) call: OpenAI's `tool_choice`, provider-neutral. */
export type ToolChoice = 'auto' | 'none' | 'required' | { readonly name: string };

/** Sampling and provider options for one request (temperature, max tokens, ...). */
export interface ModelOptions {
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  seed?: number;
  stop?: string[];
  /** Anything else, passed to the provider as-is. */
  extra?: JsonObject;
}

/** Everything a `ChatModel` needs for one completion. */
export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ToolSchema[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  options?: ModelOptions;
  /** Aborting it cancels the request (unsubscribing does too). */
  signal?: AbortSignal;
}

/** Token counts of one request, or summed over a call. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Input tokens read from the provider's prompt cache (counted in `inputTokens`). */
  cacheReadTokens?: number;
  /** Input tokens written to the provider's prompt cache (counted in `inputTokens`). */
  cacheWriteTokens?: number;
  /**
   * Input tokens read from a prompt cache, counted within `inputTokens` (OpenAI's
   * `cached_tokens`, Anthropic's `cache_read_input_tokens`; writes excluded); 0 when none.
   * The OpenAI and Anthropic models always report it; sums keep it when either side has it.
   */
  cachedInputTokens?: number;
}

/** A fragment of one tool call; fragments with the same `index` concatenate. */
export interface ToolCallDelta {
  index: number;
  id?: string;
  name?: string;
  arguments?: string;
  /** Provider data of the call (the wire's `extra_content`); later fragments' keys win. */
  extraContent?: JsonObject;
}

/** Which wire field carried a reply's reasoning text, so it goes back in the same one. */
export type ReasoningField = 'reasoning_content' | 'reasoning';

/** One streamed piece of a response; every field is optional and additive. */
export interface ChatChunk {
  text?: string;
  thinking?: string;
  /** The field that carried `thinking` (set with it). */
  reasoningField?: ReasoningField;
  /**
   * Pieces of OpenRouter's `reasoning_details`: pieces with the same `index` merge (their
   * `text`, `summary` and `data` concatenate, other fields take the latest value); a piece
   * without an index is a detail of its own.
   */
  reasoningDetails?: JsonObject[];
  toolCalls?: ToolCallDelta[];
  usage?: Usage;
  finishReason?: string;
  /** Closes the thinking streamed so far as one block with this provider signature. */
  thinkingSignature?: string;
  /** A whole redacted thinking block (the provider's opaque data), in stream order. */
  redactedThinking?: string;
  /** The model that produced this response, when it is not the one asked (a fallback chain). */
  model?: string;
  /** Entries the reply's `metadata` gets (a fallback chain's record of skipped models). */
  metadata?: JsonObject;
}

/**
 * A chat model. `stream()` is cold: each subscription sends one request and emits its
 * chunks in order, then completes; a failed request errors with a `ModelError`.
 * Unsubscribing, or aborting `request.signal`, cancels the request.
 */
export interface ChatModel {
  /** The model's name, for logs and events. */
  readonly modelName: string;
  stream(request: ChatRequest): Observable<ChatChunk>;
}
