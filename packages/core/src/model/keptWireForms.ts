import type { Msg } from '../message/msg.js';
import type { AssistantChatMessage, ChatMessage, ToolChatMessage } from './chatMessage.js';
import {
  assistantMessage,
  hasReasoning,
  systemMessage,
  toolResults,
  userMessage,
  type WireResults,
} from './msgWireForm.js';

/**
 * The wire form of a Msg that needs more than one kept value: a user Msg with tool results,
 * an own turn with reasoning, a Msg formatted both as the agent's own turn and as another
 * agent's. A class with every field set in its constructor: one small object of fixed shape.
 */
class WireForm {
  results: WireResults;
  /** As a user message, or another agent's turn (`SKIP` when not sent). */
  spoken: ChatMessage | typeof SKIP | undefined;
  own: AssistantChatMessage | undefined;
  ownReasoning: AssistantChatMessage | undefined;

  constructor(results: WireResults) {
    this.results = results;
    this.spoken = undefined;
    this.own = undefined;
    this.ownReasoning = undefined;
  }
}

/**
 * Requests of at least this many Msgs keep each Msg's wire form; shorter ones are formatted
 * afresh. Keeping a form costs about as much as formatting its Msg seven times over (a weak
 * map entry and frozen objects), which a short history never pays back, while a long one
 * is where re-formatting every request grows with the conversation.
 */
export const KEEP_FROM = 12;

/** A Msg that sends nothing (an empty turn of another agent, a tool Msg without results). */
const SKIP: unique symbol = Symbol('skip');

/**
 * What is kept per Msg, for as long as the Msg lives (Msgs are immutable values, so a Msg
 * always formats the same way): most Msgs keep their one wire message (or their tool
 * results) as it is, with no object around it, since a parked call holds the forms of its
 * whole history; the others keep a `WireForm`.
 */
type Kept = WireForm | ChatMessage | readonly ToolChatMessage[] | typeof SKIP;

const kept = new WeakMap<Msg, Kept>();

/** The system Msg `msg` as a system message. */
export function keptSystem(msg: Msg): ChatMessage {
  let known = kept.get(msg) as ChatMessage | undefined;
  if (known === undefined) {
    known = systemMessage(msg);
    kept.set(msg, known);
  }
  return known;
}

/** The tool results of a tool Msg. */
export function keptResults(msg: Msg): WireResults {
  const known = kept.get(msg);
  if (known === SKIP) return undefined;
  if (known !== undefined) return known as WireResults;
  const results = toolResults(msg.content);
  kept.set(msg, results ?? SKIP);
  return results;
}

/** A user Msg's tool results, and the Msg as a user message (`undefined` when not sent). */
export function keptUser(msg: Msg): WireForm {
  const known = kept.get(msg);
  if (known instanceof WireForm) return known;
  const form = new WireForm(toolResults(msg.content));
  const name = msg.name === 'user' ? undefined : msg.name;
  form.spoken = userMessage(msg, name, form.results === undefined) ?? SKIP;
  kept.set(msg, form);
  return form;
}

/** Whether a kept spoken form is a message to send. */
export function isSent(spoken: ChatMessage | typeof SKIP | undefined): spoken is ChatMessage {
  return spoken !== undefined && spoken !== SKIP;
}

/** Another agent's assistant Msg as a named user message, or `undefined` when it has no text. */
export function keptOtherTurn(msg: Msg): ChatMessage | undefined {
  const name = msg.name;
  const known = kept.get(msg);
  if (known instanceof WireForm) {
    known.spoken ??= userMessage(msg, name, false) ?? SKIP;
    return isSent(known.spoken) ? known.spoken : undefined;
  }
  if (known === SKIP) return undefined;
  if (known !== undefined && (known as ChatMessage).role === 'user') return known as ChatMessage;
  const spoken = userMessage(msg, name, false) ?? SKIP;
  if (known === undefined) kept.set(msg, spoken);
  else {
    // Formatted before as the agent's own turn: both are kept.
    const form = new WireForm(undefined);
    form.own = known as AssistantChatMessage;
    form.spoken = spoken;
    kept.set(msg, form);
  }
  return isSent(spoken) ? spoken : undefined;
}

/**
 * The agent's own assistant Msg as an assistant message, with its reasoning or without,
 * and its tool results (which follow it when their call is in the request).
 */
export function keptOwnTurn(msg: Msg, reasoning: boolean): WireForm | AssistantChatMessage {
  const known = kept.get(msg);
  if (known instanceof WireForm) {
    if (reasoning) known.ownReasoning ??= assistantMessage(msg, true);
    else known.own ??= assistantMessage(msg, false);
    return known;
  }
  if (known !== undefined && known !== SKIP && (known as ChatMessage).role === 'assistant') {
    return known as AssistantChatMessage;
  }
  const results = toolResults(msg.content);
  if (known === undefined && results === undefined && !hasReasoning(msg)) {
    // The usual turn: the same with reasoning and without, and no results of its own.
    const message = assistantMessage(msg, false);
    kept.set(msg, message);
    return message;
  }
  const form = new WireForm(results);
  if (known !== undefined) form.spoken = known as ChatMessage | typeof SKIP;
  if (reasoning) form.ownReasoning = assistantMessage(msg, true);
  else form.own = assistantMessage(msg, false);
  kept.set(msg, form);
  return form;
}

/** The own turn's message for `reasoning`, from what `keptOwnTurn` returned. */
export function ownMessage(
  turn: WireForm | AssistantChatMessage,
  reasoning: boolean,
): AssistantChatMessage {
  if (!(turn instanceof WireForm)) return turn;
  return (reasoning ? turn.ownReasoning : turn.own)!;
}

/** The tool results of what `keptOwnTurn` returned. */
export function ownResults(turn: WireForm | AssistantChatMessage): WireResults {
  return turn instanceof WireForm ? turn.results : undefined;
}

export type { WireForm };
