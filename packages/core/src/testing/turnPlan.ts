import type { Usage } from '../model/chatModel.js';
import { contentText, type ScriptedError, type ScriptedTurn } from './script.js';

/** A scripted tool call with its id fixed and its arguments split into streamed fragments. */
export interface PlannedToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  readonly fragments: readonly string[];
}

/**
 * What a scripted turn streams, in pieces: shared by `ScriptedChatModel` and the strict
 * server so both chunk a turn the same way.
 */
export interface TurnPlan {
  readonly thinking: readonly string[];
  readonly text: readonly string[];
  readonly toolCalls: readonly PlannedToolCall[];
  readonly usage: Usage;
  readonly finishReason: 'stop' | 'tool_calls' | 'length' | 'content_filter';
  readonly delayMs: number;
  readonly chunkDelayMs: number;
  readonly error?: ScriptedError;
}

/** Plans a turn for a request with `messages`; `nextCallId` supplies ids for calls scripted without one. */
export function planTurn(
  turn: ScriptedTurn,
  messages: unknown,
  nextCallId: () => string,
): TurnPlan {
  const text = turn.text ?? '';
  const thinking = turn.thinking ?? '';
  const freshId = unusedIds(messages, nextCallId);
  const toolCalls = (turn.toolCalls ?? []).map((call): PlannedToolCall => {
    const args =
      typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    return {
      id: call.id ?? freshId(),
      name: call.name,
      arguments: args,
      fragments: splitArguments(args),
    };
  });
  const outputChars =
    text.length +
    thinking.length +
    toolCalls.reduce((n, c) => n + c.name.length + c.arguments.length, 0);
  const inputTokens = turn.usage?.inputTokens ?? estimateTokens(messageChars(messages));
  const outputTokens = turn.usage?.outputTokens ?? estimateTokens(outputChars);
  return {
    thinking: splitText(thinking, turn.chunkSize),
    text: splitText(text, turn.chunkSize),
    toolCalls,
    usage: {
      inputTokens,
      outputTokens,
      totalTokens: inputTokens + outputTokens,
      ...(turn.usage?.cachedInputTokens !== undefined && {
        cachedInputTokens: turn.usage.cachedInputTokens,
      }),
    },
    finishReason: turn.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    delayMs: turn.delayMs ?? 0,
    chunkDelayMs: turn.chunkDelayMs ?? 0,
    ...(turn.error && { error: turn.error }),
  };
}

/**
 * Splits text into streamed deltas: `chunkSize` characters each, or by default one word per
 * delta with its leading whitespace (`"Hello world"` → `"Hello"`, `" world"`), like the small
 * token deltas real servers send. The pieces always join back to `text`.
 */
export function splitText(text: string, chunkSize?: number): string[] {
  if (text === '') return [];
  if (chunkSize !== undefined && chunkSize > 0) {
    const pieces: string[] = [];
    for (let i = 0; i < text.length; i += chunkSize) pieces.push(text.slice(i, i + chunkSize));
    return pieces;
  }
  const words = text.match(/\s*\S+/g);
  if (!words) return [text];
  let matched = 0;
  for (const word of words) matched += word.length;
  const rest = text.slice(matched);
  if (rest) words[words.length - 1] += rest;
  return words;
}

/** Splits tool-call arguments into 2+ fragments (when 2+ characters long), at most 16 characters each. */
export function splitArguments(args: string): string[] {
  if (args.length < 2) return args === '' ? [] : [args];
  const size = Math.min(16, Math.ceil(args.length / 2));
  return splitText(args, size);
}

function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

function messageChars(messages: unknown): number {
  if (!Array.isArray(messages)) return 0;
  let chars = 0;
  for (const message of messages as unknown[]) {
    if (typeof message !== 'object' || message === null) continue;
    const { content, tool_calls } = message as { content?: unknown; tool_calls?: unknown };
    chars += contentText(content).length;
    if (!Array.isArray(tool_calls)) continue;
    for (const call of tool_calls as Array<{
      function?: { name?: unknown; arguments?: unknown };
    }>) {
      chars +=
        String(call.function?.name ?? '').length + String(call.function?.arguments ?? '').length;
    }
  }
  return chars;
}

/**
 * Wraps `nextCallId` to skip ids the conversation already holds, as a real model's random
 * ids would: a model or server restarted on a restored conversation must not reuse them.
 */
function unusedIds(messages: unknown, nextCallId: () => string): () => string {
  const used = new Set<string>();
  if (Array.isArray(messages)) {
    for (const message of messages as { tool_calls?: unknown }[]) {
      if (!Array.isArray(message?.tool_calls)) continue;
      for (const call of message.tool_calls as { id?: unknown }[])
        if (typeof call?.id === 'string') used.add(call.id);
    }
  }
  return () => {
    let id = nextCallId();
    while (used.has(id)) id = nextCallId();
    used.add(id);
    return id;
  };
}
