import { isJsonObject, type JsonObject } from '../json.js';
import type { ContentBlock } from '../message/contentBlock.js';
import type { Msg } from '../message/msg.js';
import { toolOutputText } from '../message/readers.js';
import type {
  AssistantChatMessage,
  ChatContentPart,
  ChatMessage,
  ChatThinking,
  ChatToolCall,
  ToolChatMessage,
  UserChatMessage,
} from './chatMessage.js';

/**
 * The wire form of one Msg, kept for as long as the Msg lives (Msgs are immutable values,
 * so the same Msg always formats the same way). Only what depends on the Msg alone is
 * kept; what depends on the rest of the request (which tool results have their call in
 * it) is decided per request from `results` and `callIds`. Each form is built the first
 * time a request needs it. Every wire object in it is frozen: requests share them.
 */
export interface MsgWireForm {
  /** What the form was built from: a Msg changed in place (against the contract) is rebuilt. */
  readonly content: readonly ContentBlock[];
  readonly length: number;
  readonly name: string;
  /** The Msg's `tool_result` blocks as tool messages, in block order (empty when none). */
  readonly results: readonly ToolChatMessage[];
  /** The ids of the Msg's `tool_use` blocks, in block order. */
  readonly callIds: readonly string[];
  /** A system or user Msg, or another agent's turn: its message, or `null` when skipped. */
  spoken?: ChatMessage | null;
  /** The agent's own assistant turn, without and with its reasoning. */
  own?: AssistantChatMessage;
  ownReasoning?: AssistantChatMessage;
}

const forms = new WeakMap<Msg, MsgWireForm>();
let built = 0;

/**
 * How many wire messages the default formatter has built since the process started: a
 * measure of formatting work (a request made of Msgs formatted before builds none).
 * For tests and benchmarks.
 */
export function wireMessagesBuilt(): number {
  return built;
}

/** The kept wire form of `msg`, made (without any message yet) when it has none. */
export function wireFormOf(msg: Msg): MsgWireForm {
  const known = forms.get(msg);
  if (
    known !== undefined &&
    known.content === msg.content &&
    known.length === msg.content.length &&
    known.name === msg.name
  ) {
    return known;
  }
  const form: MsgWireForm = {
    content: msg.content,
    length: msg.content.length,
    name: msg.name,
    results: toolResults(msg.content),
    callIds: toolCallIds(msg.content),
  };
  forms.set(msg, form);
  return form;
}

function toolResults(blocks: readonly ContentBlock[]): readonly ToolChatMessage[] {
  let results: ToolChatMessage[] | undefined;
  for (const block of blocks) {
    if (block.type !== 'tool_result') continue;
    built++;
    results ??= [];
    results.push(
      Object.freeze({ role: 'tool', tool_call_id: block.id, content: toolOutputText(block) }),
    );
  }
  return results === undefined ? NONE : Object.freeze(results);
}

function toolCallIds(blocks: readonly ContentBlock[]): readonly string[] {
  let ids: string[] | undefined;
  for (const block of blocks) {
    if (block.type !== 'tool_use') continue;
    ids ??= [];
    ids.push(block.id);
  }
  return ids === undefined ? NONE : Object.freeze(ids);
}

const NONE: readonly never[] = Object.freeze([]);

/** `msg` as a system message. */
export function systemMessage(msg: Msg): ChatMessage {
  built++;
  return Object.freeze({ role: 'system', content: joinText(msg.content) });
}

/**
 * `msg` as a user message named `name` (sanitized by the caller), or `null` when it has
 * no content and `keepEmpty` is false.
 */
export function userMessage(
  msg: Msg,
  name: string | undefined,
  keepEmpty: boolean,
): UserChatMessage | null {
  const content = userContent(msg.content);
  if (!keepEmpty && content.length === 0) return null;
  built++;
  const message: UserChatMessage = { role: 'user', content };
  if (name) message.name = name;
  return Object.freeze(message);
}

function userContent(blocks: readonly ContentBlock[]): string | ChatContentPart[] {
  if (!blocks.some((block) => block.type === 'image')) return joinText(blocks);
  const parts: ChatContentPart[] = [];
  for (const block of blocks) {
    if (block.type === 'text') parts.push(Object.freeze({ type: 'text', text: block.text }));
    else if (block.type === 'image')
      parts.push(
        Object.freeze({
          type: 'image_url',
          image_url: Object.freeze({ url: block.url }),
        }) as ChatContentPart,
      );
  }
  return Object.freeze(parts) as ChatContentPart[];
}

/** The agent's own assistant Msg as an assistant message, with its reasoning or without. */
export function assistantMessage(msg: Msg, reasoning: boolean): AssistantChatMessage {
  built++;
  const blocks = msg.content;
  const message: AssistantChatMessage = { role: 'assistant', content: joinText(blocks) };
  if (reasoning) addReasoning(blocks, message);
  let calls = 0;
  let thinking: ChatThinking[] | undefined;
  for (const block of blocks) {
    if (block.type === 'tool_use') calls++;
    else if (reasoning && block.type === 'thinking') {
      const signed = signedThinking(block);
      if (signed === undefined) continue;
      thinking ??= [];
      thinking.push(signed);
    }
  }
  if (thinking !== undefined) message.thinking = Object.freeze(thinking) as ChatThinking[];
  if (calls === 0) return Object.freeze(message);
  // Sized up front: a request is held for as long as its model call runs, and an array
  // grown by push keeps room for 17 entries.
  const toolCalls = new Array<ChatToolCall>(calls);
  let at = 0;
  for (const block of blocks) {
    if (block.type !== 'tool_use') continue;
    const call: ChatToolCall = {
      id: block.id,
      type: 'function',
      function: Object.freeze({ name: block.name, arguments: JSON.stringify(block.input) }),
    };
    const extra = reasoning ? block.provider?.['extraContent'] : undefined;
    if (isJsonObject(extra)) call.extra_content = extra;
    toolCalls[at++] = Object.freeze(call);
  }
  message.tool_calls = Object.freeze(toolCalls) as ChatToolCall[];
  return Object.freeze(message);
}

/** Puts the reasoning of `blocks` in the fields the server sent it in. */
function addReasoning(blocks: readonly ContentBlock[], message: AssistantChatMessage): void {
  for (const block of blocks) {
    if (block.type !== 'thinking' || block.provider === undefined) continue;
    const { reasoningField, reasoningDetails } = block.provider;
    if (reasoningField === 'reasoning_content' || reasoningField === 'reasoning') {
      const before = message[reasoningField];
      message[reasoningField] = before === undefined ? block.thinking : before + block.thinking;
    }
    if (Array.isArray(reasoningDetails)) {
      const details = reasoningDetails.filter(isJsonObject) as JsonObject[];
      message.reasoning_details = message.reasoning_details
        ? [...message.reasoning_details, ...details]
        : details;
    }
  }
  if (message.reasoning_details !== undefined) Object.freeze(message.reasoning_details);
}

/** A thinking block the provider must get back unchanged, or `undefined` for plain thinking. */
function signedThinking(block: ContentBlock & { type: 'thinking' }): ChatThinking | undefined {
  const redacted = block.provider?.['redacted'];
  if (typeof redacted === 'string')
    return Object.freeze({ type: 'redacted_thinking', data: redacted });
  if (block.signature !== undefined) {
    return Object.freeze({
      type: 'thinking',
      thinking: block.thinking,
      signature: block.signature,
    });
  }
  return undefined;
}

function joinText(blocks: readonly ContentBlock[]): string {
  // No array per message: most messages hold one text block, which is then used as it is.
  let text: string | undefined;
  for (const block of blocks) {
    if (block.type === 'text') text = text === undefined ? block.text : `${text}\n${block.text}`;
  }
  return text ?? '';
}
