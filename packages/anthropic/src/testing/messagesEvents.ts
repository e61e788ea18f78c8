import type { JsonObject } from '@rxagent/core';
import type { AnthropicScriptedTurn } from './anthropicScript.js';
import type { ThinkingSigner } from './thinkingSigner.js';

/** One server-sent event: its name and its JSON data. */
export interface SentEvent {
  readonly event: string;
  readonly data: JsonObject;
}

/** What `planEvents` needs besides the turn. */
export interface EventContext {
  readonly model: string;
  readonly messageId: string;
  readonly signer: ThinkingSigner;
  readonly nextToolId: () => string;
  readonly usage: { input: number; cacheRead: number; cacheWrite: number };
}

/** `text` cut into deltas of `size` characters, or one word (with its space) per delta. */
export function pieces(text: string, size: number | undefined): string[] {
  if (text === '') return [];
  if (size !== undefined && size > 0) {
    const out: string[] = [];
    for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
    return out;
  }
  return text.match(/\S+\s*|\s+/gu) ?? [text];
}

/**
 * The events of one streamed reply, in order: `message_start`, a `ping`, the thinking block
 * (deltas, then its `signature_delta`), a `redacted_thinking` block, the text block, one
 * `tool_use` block per call (its input in `input_json_delta` pieces), `message_delta` with
 * the stop reason and usage, `message_stop`. `contentEvents` counts the content deltas, for
 * a scripted error after some of them.
 */
export function planEvents(turn: AnthropicScriptedTurn, context: EventContext): SentEvent[] {
  const events: SentEvent[] = [];
  const { usage } = context;
  events.push({
    event: 'message_start',
    data: {
      type: 'message_start',
      message: {
        id: context.messageId,
        type: 'message',
        role: 'assistant',
        model: context.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.input,
          output_tokens: 1,
          cache_read_input_tokens: usage.cacheRead,
          cache_creation_input_tokens: usage.cacheWrite,
        },
      },
    },
  });
  events.push({ event: 'ping', data: { type: 'ping' } });
  let index = 0;
  let output = 0;
  const block = (start: JsonObject, deltas: JsonObject[]): void => {
    events.push({
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: start },
    });
    for (const delta of deltas) {
      events.push({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index, delta },
      });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
    index++;
  };
  if (turn.thinking) {
    const thinking = turn.thinking;
    output += thinking.length;
    block({ type: 'thinking', thinking: '', signature: '' }, [
      ...pieces(thinking, turn.chunkSize).map((part) => ({
        type: 'thinking_delta',
        thinking: part,
      })),
      { type: 'signature_delta', signature: context.signer.sign(thinking) },
    ]);
  }
  if (turn.redactedThinking)
    block({ type: 'redacted_thinking', data: context.signer.redact() }, []);
  if (turn.text) {
    output += turn.text.length;
    block(
      { type: 'text', text: '' },
      pieces(turn.text, turn.chunkSize).map((part) => ({ type: 'text_delta', text: part })),
    );
  }
  for (const call of turn.toolCalls ?? []) {
    const json =
      typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    output += json.length;
    block(
      { type: 'tool_use', id: call.id ?? context.nextToolId(), name: call.name, input: {} },
      pieces(json, turn.chunkSize ?? 16).map((part) => ({
        type: 'input_json_delta',
        partial_json: part,
      })),
    );
  }
  const stopReason =
    turn.stopReason ?? ((turn.toolCalls?.length ?? 0) > 0 ? 'tool_use' : 'end_turn');
  const outputTokens = turn.usage?.outputTokens ?? Math.max(1, Math.ceil(output / 4));
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: outputTokens },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

/** Whether `event` carries content (counted by a scripted error's `afterChunks`). */
export function isContentEvent(event: SentEvent): boolean {
  return (
    event.event === 'content_block_delta' ||
    (event.event === 'content_block_start' &&
      event.data['content_block'] !== undefined &&
      (event.data['content_block'] as JsonObject)['type'] === 'redacted_thinking')
  );
}

/** The wire form of one event. */
export function encodeEvent({ event, data }: SentEvent): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
