import type { ChatRequest } from '@rxagent/core';
import type { ScriptedError, ScriptedToolCall, ScriptedTurn } from '@rxagent/core/testing';

/** A tool call a scripted turn makes (as for the strict OpenAI server). */
export type AnthropicScriptedToolCall = ScriptedToolCall;

/**
 * A scripted failure. With a `status` and no `afterChunks` the request is answered with
 * that HTTP error (`type` defaults from the status: 400 `invalid_request_error`, 429
 * `rate_limit_error`, 529 `overloaded_error`, other 5xx `api_error`). With `afterChunks`
 * (that many content events first) the stream then carries an `error` event of `type`
 * (default: the status's type); with neither `type` nor `status` the connection is reset,
 * as on the strict OpenAI server.
 */
export interface AnthropicScriptedError extends ScriptedError {
  type?: string;
}

/**
 * One scripted reply of the strict Anthropic server: a `ScriptedTurn` of
 * `@rxagent/core/testing` (so a script written for the strict OpenAI server plays here
 * unchanged), whose `thinking` is streamed as a thinking block the server signs, plus
 * Anthropic's own parts.
 */
export interface AnthropicScriptedTurn extends Omit<ScriptedTurn, 'error'> {
  /** Add a `redacted_thinking` block (its data is made and later checked by the server). */
  redactedThinking?: boolean;
  /** Default: `end_turn`, or `tool_use` when the turn calls tools. */
  stopReason?: string;
  error?: AnthropicScriptedError;
}

/**
 * A script entry: text, a turn, or a function of the request (as a `ChatRequest`: the
 * Messages API body read back into OpenAI-style messages, as scripts for the strict OpenAI
 * server expect) and the reply's 0-based position in the script.
 */
export type AnthropicScriptedReply =
  | string
  | AnthropicScriptedTurn
  | ((request: ChatRequest, index: number) => string | AnthropicScriptedTurn);
