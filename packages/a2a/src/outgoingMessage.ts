import type { Message } from '@a2a-js/sdk';
import {
  InvalidArgumentError,
  isJsonObject,
  type Msg,
  readToolDecisions,
  textOf,
} from '@rxagent/core';
import { a2aMessage, dataPart, textPart } from './a2aParts.js';

/** A remote task stopped for approval: its id and the ids of its pending calls. */
export interface WaitingTask {
  readonly id: string;
  readonly callIds: readonly string[];
}

/**
 * The message an A2AAgent call sends. On a task waiting for approval: the call's
 * `toolDecisions(...)` as a data part (no input approves every pending call), or its text
 * (a new request, which the remote agent reads as leaving the calls undecided). Otherwise
 * the text of what the agent observed since its last call (`name: text` lines) and of the
 * input. Throws `InvalidArgumentError` when there is nothing to send.
 */
export function outgoingMessage(
  msgs: readonly Msg[],
  observed: readonly Msg[],
  contextId: string,
  waiting: WaitingTask | undefined,
): { readonly message: Message; readonly usedObserved: boolean } {
  const decisions = msgs.find((msg) => readToolDecisions(msg) !== undefined);
  if (waiting !== undefined && (decisions !== undefined || msgs.length === 0)) {
    const raw = decisions?.metadata['toolDecisions'];
    const value = isJsonObject(raw) ? raw : { approve: [...waiting.callIds], deny: {} };
    return {
      message: a2aMessage('user', [dataPart(value)], { contextId, taskId: waiting.id }),
      usedObserved: false,
    };
  }
  if (decisions !== undefined)
    throw new InvalidArgumentError(
      'A2AAgent: toolDecisions(...) was given, but no remote task waits for approval.',
    );
  const lines: string[] = [];
  // In a hub an input Msg may have been observed too (its broadcast): send it once.
  const heard = new Set(observed.map((msg) => msg.id));
  for (const msg of observed) {
    const text = textOf(msg);
    if (text !== '') lines.push(`${msg.name}: ${text}`);
  }
  for (const msg of msgs) {
    if (heard.has(msg.id)) continue;
    const text = textOf(msg);
    if (text !== '') lines.push(observed.length > 0 ? `${msg.name}: ${text}` : text);
  }
  if (lines.length === 0)
    throw new InvalidArgumentError(
      'A2AAgent: the call has no text to send (no input and nothing observed); call it with a message.',
    );
  const ids = waiting === undefined ? { contextId } : { contextId, taskId: waiting.id };
  return { message: a2aMessage('user', [textPart(lines.join('\n'))], ids), usedObserved: true };
}
