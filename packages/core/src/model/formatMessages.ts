import { isJsonObject, type JsonObject } from '../json.js';
import type { ContentBlock } from '../message/contentBlock.js';
import type { Msg } from '../message/msg.js';
import { toolOutputText } from '../message/readers.js';
import { checkOptions, optionNames } from '../options/checkOptions.js';
import type {
  AssistantChatMessage,
  ChatContentPart,
  ChatMessage,
  ChatThinking,
  ChatToolCall,
  UserChatMessage,
} from './chatMessage.js';

/** Options of `formatMessages`. */
export interface FormatOptions {
  /** Sent first as a system message when non-empty; it is never stored in memory. */
  readonly systemPrompt?: string;
  /**
   * The formatting agent's name. An assistant Msg with another name is a different agent's
   * speech heard through a hub, so it is sent as a named user message.
   */
  readonly selfName?: string;
  /**
   * The model the messages are sent to. The reasoning an assistant Msg recorded (its
   * thinking blocks' `provider` data, its tool calls' `extraContent`) is sent back only
   * when the Msg's `metadata.model` is this model; without it, reasoning is dropped.
   */
  readonly model?: string;
}

const FORMAT_KEYS = optionNames<FormatOptions>({ systemPrompt: true, selfName: true, model: true });

/**
 * Maps Msgs to the chat messages a `ChatModel` takes. `formatMessages` is the default; pass
 * your own to a ReActAgent (`formatter` option) to change how history reaches the model.
 */
export type Formatter = (msgs: readonly Msg[], options: FormatOptions) => ChatMessage[];

/**
 * Maps Msgs to OpenAI chat messages, in time linear in their size.
 *
 * - `tool_use` blocks of the agent's own assistant Msgs become `tool_calls` (arguments are
 *   always re-serialised, so they are valid JSON).
 * - Reasoning goes back only to the model that produced it: on the agent's own assistant
 *   Msgs whose `metadata.model` is `options.model`, a thinking block whose `provider`
 *   recorded a `reasoningField` is sent in that field (`reasoning_content` or `reasoning`),
 *   its `reasoningDetails` as `reasoning_details`, and each tool call's `extraContent` as
 *   its `extra_content`; thinking a provider signed or redacted goes in the message's
 *   `thinking` (for Anthropic; OpenAI-compatible adapters drop the field). Otherwise
 *   thinking blocks are dropped.
 * - Each `tool_result` becomes a `role: 'tool'` message, in block order. A result whose call
 *   is not in the formatted history (another agent's tool, a trimmed window) is dropped,
 *   since the API rejects a tool message that answers no call.
 * - User Msgs not named `"user"` carry their name on the wire; framework feedback is a user
 *   Msg named `"system"` and is sent with `name: 'system'`.
 * - Another agent's assistant Msg (named neither `selfName` nor the default `"assistant"`)
 *   is sent as a user message with that agent's name and its text only; its tool calls have
 *   no results here, and a turn with no text is skipped.
 */
export function formatMessages(msgs: readonly Msg[], options: FormatOptions = {}): ChatMessage[] {
  checkOptions(options, FORMAT_KEYS, 'formatMessages()');
  const out: ChatMessage[] = [];
  if (options.systemPrompt) out.push({ role: 'system', content: options.systemPrompt });
  const callIds = new Set<string>();
  for (const msg of msgs) {
    switch (msg.role) {
      case 'system':
        out.push({ role: 'system', content: joinText(msg.content) });
        break;
      case 'user': {
        // Results must directly follow the assistant turn that asked for them.
        const answered = pushToolResults(msg.content, callIds, out);
        pushUser(msg, msg.name === 'user' ? undefined : msg.name, !answered, out);
        break;
      }
      case 'assistant':
        if (isOtherAgent(msg, options.selfName)) {
          pushUser(msg, msg.name, false, out);
        } else {
          out.push(toAssistant(msg, callIds, sentBack(msg, options.model)));
          pushToolResults(msg.content, callIds, out);
        }
        break;
      case 'tool':
        pushToolResults(msg.content, callIds, out);
        break;
    }
  }
  return out;
}

/**
 * Whether an assistant Msg is another agent's speech. `assistantMsg()`'s default name,
 * `"assistant"`, counts as the formatting agent's own: memory seeded with plain assistant
 * messages, or a hook's replacement reply, must not turn into user turns.
 */
function isOtherAgent(msg: Msg, selfName: string | undefined): boolean {
  return selfName !== undefined && msg.name !== selfName && msg.name !== 'assistant';
}

/** Replaces characters the API rejects in `name` with `_` and cuts it to 64 characters. */
export function sanitizeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/gu, '_').slice(0, 64);
}

/** Pushes the answerable tool results of `blocks`; whether the blocks held any result. */
function pushToolResults(
  blocks: readonly ContentBlock[],
  callIds: ReadonlySet<string>,
  out: ChatMessage[],
): boolean {
  let found = false;
  for (const block of blocks) {
    if (block.type !== 'tool_result') continue;
    found = true;
    if (callIds.has(block.id)) {
      out.push({ role: 'tool', tool_call_id: block.id, content: toolOutputText(block) });
    }
  }
  return found;
}

/** Pushes `msg` as a user message; an empty one only when `keepEmpty` (a real user turn). */
function pushUser(
  msg: Msg,
  name: string | undefined,
  keepEmpty: boolean,
  out: ChatMessage[],
): void {
  const content = userContent(msg.content);
  if (!keepEmpty && content.length === 0) return;
  const wireName = name === undefined ? '' : sanitizeName(name);
  const message: UserChatMessage = { role: 'user', content };
  if (wireName) message.name = wireName;
  out.push(message);
}

function userContent(blocks: readonly ContentBlock[]): string | ChatContentPart[] {
  if (!blocks.some((block) => block.type === 'image')) return joinText(blocks);
  const parts: ChatContentPart[] = [];
  for (const block of blocks) {
    if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'image')
      parts.push({ type: 'image_url', image_url: { url: block.url } });
  }
  return parts;
}

/** Whether the reasoning `msg` recorded may go back to `model`: the model that produced it. */
function sentBack(msg: Msg, model: string | undefined): boolean {
  return model !== undefined && msg.metadata['model'] === model;
}

function toAssistant(msg: Msg, callIds: Set<string>, reasoning: boolean): AssistantChatMessage {
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
  if (thinking !== undefined) message.thinking = thinking;
  if (calls === 0) return message;
  // Sized up front: a request is held for as long as its model call runs, and an array
  // grown by push keeps room for 17 entries.
  const toolCalls = new Array<ChatToolCall>(calls);
  let at = 0;
  for (const block of blocks) {
    if (block.type !== 'tool_use') continue;
    callIds.add(block.id);
    const call: ChatToolCall = {
      id: block.id,
      type: 'function',
      function: { name: block.name, arguments: JSON.stringify(block.input) },
    };
    const extra = reasoning ? block.provider?.['extraContent'] : undefined;
    if (isJsonObject(extra)) call.extra_content = extra;
    toolCalls[at++] = call;
  }
  message.tool_calls = toolCalls;
  return message;
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
}

/** A thinking block the provider must get back unchanged, or `undefined` for plain thinking. */
function signedThinking(block: ContentBlock & { type: 'thinking' }): ChatThinking | undefined {
  const redacted = block.provider?.['redacted'];
  if (typeof redacted === 'string') return { type: 'redacted_thinking', data: redacted };
  if (block.signature !== undefined) {
    return { type: 'thinking', thinking: block.thinking, signature: block.signature };
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
