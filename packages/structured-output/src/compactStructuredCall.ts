import { type ContentBlock, freezeMsg, type Msg, type ThinkingBlock } from '@rxagent/core';
import { GENERATE_RESPONSE } from './responseTool.js';

/** What a structured call added to memory only to obtain its response. */
export interface StructuredArtefacts {
  /** Reminder messages (PROMPT mode). */
  readonly reminderIds: ReadonlySet<string>;
  /** Plain-text answers that were not accepted as the final answer. */
  readonly draftIds: ReadonlySet<string>;
  /** Tool call ids of `generate_response` calls, valid or not. */
  readonly callIds: ReadonlySet<string>;
}

/**
 * The ids of the `generate_response` calls a call made: its tool_use blocks in messages
 * added during the call (not in `preexisting`), and results stored during the call (which
 * may answer a call left pending by an earlier, stopped call).
 */
export function responseCallIds(
  messages: readonly Msg[],
  preexisting: ReadonlySet<string>,
): Set<string> {
  const ids = new Set<string>();
  for (const msg of messages) {
    if (preexisting.has(msg.id)) continue;
    for (const block of msg.content) {
      if (
        (block.type === 'tool_use' || block.type === 'tool_result') &&
        block.name === GENERATE_RESPONSE
      ) {
        ids.add(block.id);
      }
    }
  }
  return ids;
}

/**
 * `messages` without the artefacts of a structured call, then `response` (when given)
 * appended: reminders and drafts are dropped; `generate_response` tool_use and tool_result
 * blocks are removed, and a message left without content (or an assistant message left with
 * no other tool call) is dropped. Tool calls of other tools made in the same turn keep their
 * message and their results, so the conversation stays valid: every remaining tool_use still
 * has its tool_result right after it. Pure: `messages` is not changed.
 */
export function compactStructuredCall(
  messages: readonly Msg[],
  artefacts: StructuredArtefacts,
  response?: Msg,
): Msg[] {
  const kept: Msg[] = [];
  for (const msg of messages) {
    if (artefacts.reminderIds.has(msg.id) || artefacts.draftIds.has(msg.id)) continue;
    const compacted = withoutResponseCalls(msg, artefacts.callIds);
    if (compacted) kept.push(compacted);
  }
  if (response) kept.push(response);
  return kept;
}

function withoutResponseCalls(msg: Msg, callIds: ReadonlySet<string>): Msg | undefined {
  if (!msg.content.some((block) => isResponseCall(block, callIds))) return msg;
  const content = msg.content.filter((block) => !isResponseCall(block, callIds));
  const calls = content.some((block) => block.type === 'tool_use');
  // Text said while calling generate_response only introduced the answer that replaces it.
  if (msg.role === 'assistant' && !calls) return undefined;
  return content.length === 0 ? undefined : freezeMsg({ ...msg, content });
}

function isResponseCall(block: ContentBlock, callIds: ReadonlySet<string>): boolean {
  return (block.type === 'tool_use' || block.type === 'tool_result') && callIds.has(block.id);
}

/**
 * The thinking blocks of the assistant message that made the accepted `generate_response`
 * call `callId`, when compaction drops that message (it made no tool call but response
 * calls), so the reply that replaces it can carry the model's reasoning. Empty otherwise:
 * a kept message keeps its own thinking.
 */
export function acceptedThinking(
  messages: readonly Msg[],
  callId: string,
  callIds: ReadonlySet<string>,
): ThinkingBlock[] {
  for (let index = messages.length - 1; index >= 0; index--) {
    const msg = messages[index]!;
    if (msg.role !== 'assistant') continue;
    if (!msg.content.some((block) => block.type === 'tool_use' && block.id === callId)) continue;
    const kept = msg.content.some((block) => block.type === 'tool_use' && !callIds.has(block.id));
    if (kept) return [];
    return msg.content.filter((block): block is ThinkingBlock => block.type === 'thinking');
  }
  return [];
}

/** The model (`metadata.model`) of the assistant message that made tool call `callId`. */
export function modelOfCall(messages: readonly Msg[], callId: string): string | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const msg = messages[index]!;
    if (!msg.content.some((block) => block.type === 'tool_use' && block.id === callId)) continue;
    const model = msg.metadata['model'];
    return typeof model === 'string' ? model : undefined;
  }
  return undefined;
}
