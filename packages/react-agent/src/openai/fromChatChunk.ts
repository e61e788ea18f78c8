import {
  type ChatChunk,
  isJsonObject,
  isValidToolCallIndex,
  type JsonObject,
  MAX_TOOL_CALL_INDEX,
  ModelError,
  type ReasoningField,
  type ToolCallDelta,
  type Usage,
} from '@rxagent/core';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionMessageToolCall,
} from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { contentText } from './contentParts.js';
import { quoteBody } from './quoteBody.js';

/** What a chunk's choice may carry; every field may be missing on some server. */
interface WireDelta {
  content?: unknown;
  refusal?: string | null;
  tool_calls?: ChatCompletionChunk.Choice.Delta.ToolCall[] | null;
  reasoning_details?: unknown;
}

const NO_DELTA: WireDelta = {};

/** Groq reports usage in `x_groq.usage` of the last chunk instead of `usage`. */
interface GroqChunk {
  x_groq?: { usage?: CompletionUsage | null } | null;
}

/**
 * Maps one streamed SDK chunk to a `ChatChunk` (pure), or `undefined` when it carries
 * nothing (a role-only delta). Only the first choice is read. Reasoning text comes from the
 * non-standard `delta.reasoning_content` (vLLM, DeepSeek) or `delta.reasoning` (Ollama,
 * newer vLLM, OpenRouter) fields, or from `thinking` parts of a `content` array (Mistral);
 * the field that carried it is `reasoningField`, so it can be sent back in the same one.
 * OpenRouter's `reasoning_details` pieces become `reasoningDetails`, and a tool call's
 * `extra_content` (Gemini's thought signature) its `extraContent`.
 * A choice without a `delta` (Azure's content-filter chunks) is read for its
 * `finish_reason`; usage is read from any chunk (`usage`, or Groq's `x_groq.usage`).
 *
 * @throws ModelError when a tool-call `index` is not an integer from 0 to
 * `MAX_TOOL_CALL_INDEX` (a tool call without an index takes its position in the chunk).
 */
export function fromChatChunk(chunk: ChatCompletionChunk): ChatChunk | undefined {
  // Runs per streamed chunk: one object out, no scratch allocations (an emptiness check
  // with Object.keys would be an array per chunk).
  if (typeof chunk !== 'object' || chunk === null) {
    throw new ModelError(
      `The model sent a chunk that is not an object: ${quoteBody(String(chunk), 100)}.`,
    );
  }
  const choice = chunk.choices?.[0];
  const finishReason = choice?.finish_reason;
  // Groq's usage rides on the last chunk only: look for it there, not on every chunk.
  const usage = toUsage(
    chunk.usage ?? (choice && !finishReason ? undefined : (chunk as GroqChunk).x_groq?.usage),
  );
  if (!choice) return usage ? { usage } : undefined;
  const delta: WireDelta = choice.delta ?? NO_DELTA;
  let text: string;
  const field = reasoningFieldOf(delta);
  let thinking = field === undefined ? undefined : (delta as Record<string, string>)[field];
  const content = delta.content;
  if (content === undefined || content === null || typeof content === 'string') {
    text = joinDefined(content, delta.refusal);
  } else {
    const parts = contentText(content);
    text = parts.text + (delta.refusal ?? '');
    thinking = (thinking ?? '') + parts.thinking;
  }
  const calls = delta.tool_calls;
  const hasCalls = Array.isArray(calls) && calls.length > 0;
  const details = detailsOf(delta.reasoning_details);
  if (!text && !thinking && !hasCalls && !finishReason && !usage && !details) return undefined;
  const out: ChatChunk = {};
  if (text) out.text = text;
  if (thinking) out.thinking = thinking;
  if (field !== undefined) out.reasoningField = field;
  if (details) out.reasoningDetails = details;
  if (hasCalls) out.toolCalls = calls.map(toToolCallDelta);
  if (finishReason) out.finishReason = finishReason;
  if (usage) out.usage = usage;
  return out;
}

function toToolCallDelta(call: ChatCompletionChunk.Choice.Delta.ToolCall, position: number) {
  if (typeof call !== 'object' || call === null) {
    throw new ModelError('The model sent a tool-call delta that is not an object.');
  }
  const index: unknown = call.index ?? position;
  if (!isValidToolCallIndex(index)) {
    const shown = quoteBody(typeof index === 'string' ? JSON.stringify(index) : String(index), 40);
    throw new ModelError(
      `The model sent a tool-call index of ${shown}; an index must be an integer from 0 to ${MAX_TOOL_CALL_INDEX}.`,
    );
  }
  const mapped: ToolCallDelta = { index };
  // Only strings count: a number or an object would be coerced into "[object Object]".
  if (call.id && typeof call.id === 'string') mapped.id = call.id;
  const fn = call.function;
  if (fn) {
    if (fn.name && typeof fn.name === 'string') mapped.name = fn.name;
    if (fn.arguments && typeof fn.arguments === 'string') mapped.arguments = fn.arguments;
  }
  const extra = (call as { extra_content?: unknown }).extra_content;
  if (isJsonObject(extra)) mapped.extraContent = extra;
  return mapped;
}

/**
 * Maps a non-streamed completion to the single `ChatChunk` that holds all of it (pure).
 *
 * @throws ModelError when the body is not a chat completion (an HTML page, an empty body
 * or a JSON error answered with status 200), quoting the start of it.
 */
export function fromChatCompletion(completion: ChatCompletion): ChatChunk {
  const body: unknown = completion;
  if (
    typeof body !== 'object' ||
    body === null ||
    !Array.isArray((body as ChatCompletion).choices)
  ) {
    throw notACompletion(body);
  }
  const out: ChatChunk = {};
  const choice = completion.choices[0];
  if (choice) {
    const message: Partial<ChatCompletion.Choice['message']> = choice.message ?? {};
    const parts = contentText(message.content);
    const text = parts.text + (message.refusal ?? '');
    if (text) out.text = text;
    const field = reasoningFieldOf(message);
    const reasoning = field === undefined ? '' : (message as Record<string, string>)[field];
    const thinking = reasoning + parts.thinking;
    if (thinking) out.thinking = thinking;
    if (field !== undefined) out.reasoningField = field;
    const details = detailsOf((message as { reasoning_details?: unknown }).reasoning_details);
    if (details) out.reasoningDetails = details;
    const calls = (Array.isArray(message.tool_calls) ? message.tool_calls : []).filter(
      isFunctionCall,
    );
    if (calls.length > 0) {
      out.toolCalls = calls.map((call, index) => ({
        index,
        ...(typeof call.id === 'string' && { id: call.id }),
        name: typeof call.function.name === 'string' ? call.function.name : '',
        arguments: argumentsText(call.function.arguments),
        ...extraOf(call),
      }));
    }
    if (choice.finish_reason) out.finishReason = choice.finish_reason;
  }
  const usage = toUsage(completion.usage);
  if (usage) out.usage = usage;
  return out;
}

function notACompletion(body: unknown): ModelError {
  const error = (body as { error?: { message?: unknown } } | null)?.error;
  const text =
    typeof error?.message === 'string'
      ? `an error: ${quoteBody(error.message)}`
      : body === ''
        ? 'an empty body'
        : quoteBody(typeof body === 'string' ? body : JSON.stringify(body));
  return new ModelError(
    `The server answered with status 200 but the body is not a chat completion: ${text}`,
  );
}

/**
 * Maps the SDK's token counts to `Usage`; a missing total is the sum of the parts;
 * `cachedInputTokens` is `prompt_tokens_details.cached_tokens` (0 when the server sent none).
 */
export function toUsage(usage: CompletionUsage | null | undefined): Usage | undefined {
  if (!usage) return undefined;
  const inputTokens = usage.prompt_tokens ?? 0;
  const outputTokens = usage.completion_tokens ?? 0;
  const cached = usage.prompt_tokens_details?.cached_tokens;
  return {
    inputTokens,
    outputTokens,
    totalTokens: usage.total_tokens ?? inputTokens + outputTokens,
    cachedInputTokens:
      typeof cached === 'number' && Number.isFinite(cached) && cached > 0
        ? Math.min(cached, inputTokens)
        : 0,
  };
}

/** The field that carries non-empty reasoning text: `reasoning_content` first, then `reasoning`. */
function reasoningFieldOf(source: object): ReasoningField | undefined {
  const fields = source as { reasoning_content?: unknown; reasoning?: unknown };
  if (typeof fields.reasoning_content === 'string' && fields.reasoning_content) {
    return 'reasoning_content';
  }
  if (typeof fields.reasoning === 'string' && fields.reasoning) return 'reasoning';
  return undefined;
}

/** OpenRouter's `reasoning_details`: its object entries, or `undefined` when there are none. */
function detailsOf(value: unknown): JsonObject[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const details = value.every(isJsonObject) ? (value as JsonObject[]) : value.filter(isJsonObject);
  return details.length > 0 ? details : undefined;
}

function extraOf(call: object): { extraContent?: JsonObject } {
  const extra = (call as { extra_content?: unknown }).extra_content;
  return isJsonObject(extra) ? { extraContent: extra } : {};
}

function joinDefined(a: string | null | undefined, b: string | null | undefined): string {
  return (a ?? '') + (b ?? '');
}

function isFunctionCall(
  call: ChatCompletionMessageToolCall,
): call is Extract<ChatCompletionMessageToolCall, { type: 'function' }> {
  // Some servers omit `type`; anything with a `function` object is a function call.
  if (typeof call !== 'object' || call === null || call.type === 'custom') return false;
  const fn: unknown = (call as { function?: unknown }).function;
  return typeof fn === 'object' && fn !== null;
}

/** Arguments as JSON text: some servers send an object instead of its text. */
function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return '';
}
