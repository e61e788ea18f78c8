import type { ChatChunk, ToolCallDelta, Usage } from '@rxagent/core';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionMessageToolCall,
} from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';

/**
 * Maps one streamed SDK chunk to a `ChatChunk` (pure), or `undefined` when it carries
 * nothing (a role-only delta). Only the first choice is read. Reasoning text comes from the
 * non-standard `delta.reasoning_content` (vLLM, DeepSeek) or `delta.reasoning` (Ollama,
 * newer vLLM, OpenRouter) fields.
 */
export function fromChatChunk(chunk: ChatCompletionChunk): ChatChunk | undefined {
  // Runs per streamed chunk: one object out, no scratch allocations (an emptiness check
  // with Object.keys would be an array per chunk).
  const choice = chunk.choices[0];
  const usage = toUsage(chunk.usage);
  if (!choice) return usage ? { usage } : undefined;
  const delta = choice.delta;
  const text = joinDefined(delta.content, delta.refusal);
  const thinking = reasoningOf(delta);
  const calls = delta.tool_calls;
  const finishReason = choice.finish_reason;
  const hasCalls = calls !== undefined && calls !== null && calls.length > 0;
  if (!text && !thinking && !hasCalls && !finishReason && !usage) return undefined;
  const out: ChatChunk = {};
  if (text) out.text = text;
  if (thinking) out.thinking = thinking;
  if (hasCalls) {
    out.toolCalls = calls.map((call, position) => {
      const mapped: ToolCallDelta = { index: call.index ?? position };
      if (call.id) mapped.id = call.id;
      if (call.function?.name) mapped.name = call.function.name;
      if (call.function?.arguments) mapped.arguments = call.function.arguments;
      return mapped;
    });
  }
  if (finishReason) out.finishReason = finishReason;
  if (usage) out.usage = usage;
  return out;
}

/** Maps a non-streamed completion to the single `ChatChunk` that holds all of it (pure). */
export function fromChatCompletion(completion: ChatCompletion): ChatChunk {
  const out: ChatChunk = {};
  const choice = completion.choices[0];
  if (choice) {
    const message = choice.message;
    const text = joinDefined(message.content, message.refusal);
    if (text) out.text = text;
    const thinking = reasoningOf(message);
    if (thinking) out.thinking = thinking;
    const calls = (message.tool_calls ?? []).filter(isFunctionCall);
    if (calls.length > 0) {
      out.toolCalls = calls.map((call, index) => ({
        index,
        id: call.id,
        name: call.function.name,
        arguments: call.function.arguments,
      }));
    }
    if (choice.finish_reason) out.finishReason = choice.finish_reason;
  }
  const usage = toUsage(completion.usage);
  if (usage) out.usage = usage;
  return out;
}

/** Maps the SDK's token counts to `Usage`; a missing total is the sum of the parts. */
export function toUsage(usage: CompletionUsage | null | undefined): Usage | undefined {
  if (!usage) return undefined;
  const inputTokens = usage.prompt_tokens ?? 0;
  const outputTokens = usage.completion_tokens ?? 0;
  return {
    inputTokens,
    outputTokens,
    totalTokens: usage.total_tokens ?? inputTokens + outputTokens,
  };
}

function reasoningOf(source: object): string | undefined {
  const fields = source as { reasoning_content?: unknown; reasoning?: unknown };
  if (typeof fields.reasoning_content === 'string' && fields.reasoning_content) {
    return fields.reasoning_content;
  }
  if (typeof fields.reasoning === 'string' && fields.reasoning) return fields.reasoning;
  return undefined;
}

function joinDefined(a: string | null | undefined, b: string | null | undefined): string {
  return (a ?? '') + (b ?? '');
}

function isFunctionCall(
  call: ChatCompletionMessageToolCall,
): call is Extract<ChatCompletionMessageToolCall, { type: 'function' }> {
  // Some servers omit `type`; anything with a `function` is a function call.
  return call.type !== 'custom' && 'function' in call;
}
