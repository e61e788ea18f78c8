import { isJsonObject, type JsonObject } from '../json.js';
import type { ContentBlock, ToolResultBlock } from '../message/contentBlock.js';
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

// A field, not a module-level `let`: V8 boxes a number kept in a module variable that
// changes, and such boxes were retained per parked call (0.5 KB each in the parked suite).
const work = { built: 0 };
let sealing = true;

/**
 * Frozen when the messages are kept (shared by requests); a request formatted afresh
 * (a short history, see `formatMessages`) is its caller's own and skips the cost.
 */
function seal<T>(value: T): T {
  return sealing ? Object.freeze(value) : value;
}

/** Whether the builders freeze what they build (on unless a fresh request is being formatted). */
export function setSealing(on: boolean): void {
  sealing = on;
}

/**
 * How many wire messages the default formatter has built since the process started: a
 * measure of formatting work (a request made of Msgs formatted before builds none).
 * For tests and benchmarks.
 */
export function wireMessagesBuilt(): number {
  return work.built;
}

/** The tool results of a Msg as wire messages: one, several (in block order), or none. */
export type WireResults = ToolChatMessage | readonly ToolChatMessage[] | undefined;

/** The `tool_result` blocks of `blocks` as frozen tool messages. */
export function toolResults(blocks: readonly ContentBlock[]): WireResults {
  let count = 0;
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    if (block.type === 'tool_result') count++;
  }
  if (count === 0) return undefined;
  // Sized exactly: an array grown by push keeps room for 17 entries, for the Msg's life.
  const results = new Array<ToolChatMessage>(count);
  let at = 0;
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    if (block.type === 'tool_result') results[at++] = toolMessage(block);
  }
  return count === 1 ? results[0] : seal(results);
}

/** A `tool_result` block as a tool message. */
export function toolMessage(block: ToolResultBlock): ToolChatMessage {
  work.built++;
  return seal({ role: 'tool', tool_call_id: block.id, content: toolOutputText(block) });
}

/** `msg` as a system message. */
export function systemMessage(msg: Msg): ChatMessage {
  work.built++;
  return seal({ role: 'system', content: joinText(msg.content) });
}

/**
 * `msg` as a user message named `name` (sanitized here), or `null` when it has no content
 * and `keepEmpty` is false.
 */
export function userMessage(
  msg: Msg,
  name: string | undefined,
  keepEmpty: boolean,
): UserChatMessage | null {
  const content = userContent(msg.content);
  if (!keepEmpty && content.length === 0) return null;
  work.built++;
  const wireName = name === undefined ? '' : sanitizeName(name);
  // One literal per shape: a field added later goes to a separate property store.
  const message: UserChatMessage = wireName
    ? { role: 'user', content, name: wireName }
    : { role: 'user', content };
  return seal(message);
}

/** Replaces characters the API rejects in `name` with `_` and cuts it to 64 characters. */
export function sanitizeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/gu, '_').slice(0, 64);
}

function userContent(blocks: readonly ContentBlock[]): string | ChatContentPart[] {
  if (!hasImage(blocks)) return joinText(blocks);
  const parts: ChatContentPart[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    if (block.type === 'text') parts.push(seal({ type: 'text', text: block.text }));
    else if (block.type === 'image')
      parts.push(
        seal({
          type: 'image_url',
          image_url: seal({ url: block.url }),
        }) as ChatContentPart,
      );
  }
  return seal(parts) as ChatContentPart[];
}

/**
 * Whether `msg` recorded reasoning its own turn sends back to the model that produced it
 * (otherwise its turn is the same with reasoning and without).
 */
export function hasReasoning(msg: Msg): boolean {
  for (let i = 0; i < msg.content.length; i++) {
    const block = msg.content[i]!;
    if (
      block.type === 'thinking' &&
      (block.provider !== undefined || block.signature !== undefined)
    )
      return true;
    if (block.type === 'tool_use' && block.provider !== undefined) return true;
  }
  return false;
}

/** The agent's own assistant Msg as an assistant message, with its reasoning or without. */
export function assistantMessage(msg: Msg, reasoning: boolean): AssistantChatMessage {
  work.built++;
  const blocks = msg.content;
  const message: AssistantChatMessage = { role: 'assistant', content: joinText(blocks) };
  if (reasoning) addReasoning(blocks, message);
  let calls = 0;
  let thinking: ChatThinking[] | undefined;
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    if (block.type === 'tool_use') calls++;
    else if (reasoning && block.type === 'thinking') {
      const signed = signedThinking(block);
      if (signed === undefined) continue;
      thinking ??= [];
      thinking.push(signed);
    }
  }
  if (thinking !== undefined) message.thinking = seal(thinking) as ChatThinking[];
  if (calls === 0) return seal(message);
  // Sized up front: a request is held for as long as its model call runs, and an array
  // grown by push keeps room for 17 entries.
  const toolCalls = new Array<ChatToolCall>(calls);
  let at = 0;
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    if (block.type !== 'tool_use') continue;
    const call: ChatToolCall = {
      id: block.id,
      type: 'function',
      function: seal({ name: block.name, arguments: JSON.stringify(block.input) }),
    };
    const extra = reasoning ? block.provider?.['extraContent'] : undefined;
    if (isJsonObject(extra)) call.extra_content = extra;
    toolCalls[at++] = seal(call);
  }
  const frozenCalls = seal(toolCalls) as ChatToolCall[];
  // The usual turn (no reasoning sent back) as one literal of its final shape.
  if (!reasoning || (thinking === undefined && !hasReasoningFields(message))) {
    return seal({ role: 'assistant', content: message.content, tool_calls: frozenCalls });
  }
  message.tool_calls = frozenCalls;
  return seal(message);
}

function hasReasoningFields(message: AssistantChatMessage): boolean {
  return (
    message.reasoning_content !== undefined ||
    message.reasoning !== undefined ||
    message.reasoning_details !== undefined
  );
}

/** Puts the reasoning of `blocks` in the fields the server sent it in. */
function addReasoning(blocks: readonly ContentBlock[], message: AssistantChatMessage): void {
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
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
  if (message.reasoning_details !== undefined) seal(message.reasoning_details);
}

/** A thinking block the provider must get back unchanged, or `undefined` for plain thinking. */
function signedThinking(block: ContentBlock & { type: 'thinking' }): ChatThinking | undefined {
  const redacted = block.provider?.['redacted'];
  if (typeof redacted === 'string') return seal({ type: 'redacted_thinking', data: redacted });
  if (block.signature !== undefined) {
    return seal({
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
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    if (block.type === 'text') text = text === undefined ? block.text : `${text}\n${block.text}`;
  }
  return text ?? '';
}

/** Whether `blocks` hold an image (a loop: `some` leaves V8's fast path on a frozen array). */
function hasImage(blocks: readonly ContentBlock[]): boolean {
  for (let i = 0; i < blocks.length; i++) if (blocks[i]!.type === 'image') return true;
  return false;
}
