import type { JsonObject } from '@rxagent/core';

/** A tool call a scripted Anthropic turn makes; a string `arguments` is streamed raw. */
export interface AnthropicScriptedToolCall {
  /** Default: `toolu_<n>`, unique per server. */
  id?: string;
  name: string;
  arguments: JsonObject | string;
}

/**
 * A scripted failure. With a `status` and no `afterChunks` the request is answered with
 * that HTTP error (`type` defaults from the status: 400 `invalid_request_error`, 429
 * `rate_limit_error`, 529 `overloaded_error`, other 5xx `api_error`). With `afterChunks`
 * (0 or more content events first) the stream carries an `error` event of `type` (default
 * `api_error`) instead, or, when `type` is `'reset'`, the connection is destroyed.
 */
export interface AnthropicScriptedError {
  status?: number;
  type?: string;
  message?: string;
  /** Response headers of an HTTP error (`retry-after`, `x-should-retry`). */
  headers?: Record<string, string>;
  afterChunks?: number;
}

/** One scripted reply of the strict Anthropic server. */
export interface AnthropicScriptedTurn {
  text?: string;
  /** Thinking text, streamed as a thinking block signed by the server. */
  thinking?: string;
  /** Add a `redacted_thinking` block (its data is made and later checked by the server). */
  redactedThinking?: boolean;
  toolCalls?: AnthropicScriptedToolCall[];
  /** Default: `end_turn`, or `tool_use` when the turn calls tools. */
  stopReason?: string;
  /** Default: `ceil(chars / 4)` of the request and the output; cache tokens from `cache_control`. */
  usage?: { inputTokens: number; outputTokens: number };
  /** Characters per streamed delta; default: one word per delta. */
  chunkSize?: number;
  /** Wait before the first event (abortable). */
  delayMs?: number;
  /** Wait between events (abortable). */
  chunkDelayMs?: number;
  error?: AnthropicScriptedError;
}

/** A script entry: text, a turn, or a function of the request body and the reply's position. */
export type AnthropicScriptedReply =
  | string
  | AnthropicScriptedTurn
  | ((body: JsonObject, index: number) => string | AnthropicScriptedTurn);
