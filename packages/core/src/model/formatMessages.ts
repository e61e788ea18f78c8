import type { Msg } from '../message/msg.js';
import { checkOptions, optionNames } from '../options/checkOptions.js';
import type { ChatMessage, ToolChatMessage } from './chatMessage.js';
import {
  isSent,
  KEEP_FROM,
  keptOtherTurn,
  keptOwnTurn,
  keptResults,
  keptSystem,
  keptUser,
  ownMessage,
  ownResults,
} from './keptWireForms.js';
import {
  assistantMessage,
  setSealing,
  systemMessage,
  toolMessage,
  userMessage,
  type WireResults,
} from './msgWireForm.js';

export { sanitizeName } from './msgWireForm.js';

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
 * Maps Msgs to OpenAI chat messages, in time linear in the Msgs it has not formatted before.
 *
 * Msgs are immutable values, so in a request of 12 Msgs or more each Msg's wire form is
 * built the first time it is formatted and kept for as long as the Msg lives: such a
 * request formats only the Msgs added since the last one. Its chat messages are frozen,
 * and those made from Msgs are shared by every request that sends them (the returned array
 * is new each time): a model adapter or hook that needs a changed message makes a copy. A
 * shorter request is formatted afresh, its messages its caller's own (keeping a form costs
 * more than a short history saves).
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
  if (msgs.length < KEEP_FROM) return formatAfresh(msgs, options);
  const out: ChatMessage[] = [];
  if (options.systemPrompt)
    out.push(Object.freeze({ role: 'system', content: options.systemPrompt }));
  // Each Msg's wire form is built once and kept (Msgs are immutable): a request formats
  // only the Msgs it has not seen, and shares the frozen wire messages of the others.
  const callIds = new Set<string>();
  // Loops by index here and in the wire forms: Msgs and their content are frozen arrays, on
  // which V8's `for…of` and callback builtins leave their fast path (and allocate per item).
  for (let i = 0; i < msgs.length; i++) {
    const msg = msgs[i]!;
    switch (msg.role) {
      case 'system':
        out.push(keptSystem(msg));
        break;
      case 'user': {
        const form = keptUser(msg);
        // Results must directly follow the assistant turn that asked for them.
        pushToolResults(form.results, callIds, out);
        if (isSent(form.spoken)) out.push(form.spoken);
        break;
      }
      case 'assistant':
        if (isOtherAgent(msg, options.selfName)) {
          const spoken = keptOtherTurn(msg);
          if (spoken !== undefined) out.push(spoken);
        } else {
          const reasoning = sentBack(msg, options.model);
          const turn = keptOwnTurn(msg, reasoning);
          out.push(ownMessage(turn, reasoning));
          addCallIds(msg, callIds);
          pushToolResults(ownResults(turn), callIds, out);
        }
        break;
      case 'tool':
        pushToolResults(keptResults(msg), callIds, out);
        break;
    }
  }
  return out;
}

/** A short request, built for this call alone: nothing kept, nothing frozen. */
function formatAfresh(msgs: readonly Msg[], options: FormatOptions): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (options.systemPrompt) out.push({ role: 'system', content: options.systemPrompt });
  const callIds = new Set<string>();
  setSealing(false);
  try {
    for (let i = 0; i < msgs.length; i++) {
      const msg = msgs[i]!;
      switch (msg.role) {
        case 'system':
          out.push(systemMessage(msg));
          break;
        case 'user': {
          const answered = pushFreshResults(msg, callIds, out);
          const name = msg.name === 'user' ? undefined : msg.name;
          const spoken = userMessage(msg, name, !answered);
          if (spoken !== null) out.push(spoken);
          break;
        }
        case 'assistant':
          if (isOtherAgent(msg, options.selfName)) {
            const spoken = userMessage(msg, msg.name, false);
            if (spoken !== null) out.push(spoken);
          } else {
            out.push(assistantMessage(msg, sentBack(msg, options.model)));
            addCallIds(msg, callIds);
            pushFreshResults(msg, callIds, out);
          }
          break;
        case 'tool':
          pushFreshResults(msg, callIds, out);
          break;
      }
    }
  } finally {
    setSealing(true);
  }
  return out;
}

/** Pushes the Msg's answerable tool results, made for this request; whether it held any. */
function pushFreshResults(msg: Msg, callIds: ReadonlySet<string>, out: ChatMessage[]): boolean {
  let found = false;
  for (let i = 0; i < msg.content.length; i++) {
    const block = msg.content[i]!;
    if (block.type !== 'tool_result') continue;
    found = true;
    if (callIds.has(block.id)) out.push(toolMessage(block));
  }
  return found;
}

function addCallIds(msg: Msg, callIds: Set<string>): void {
  for (let i = 0; i < msg.content.length; i++) {
    const block = msg.content[i]!;
    if (block.type === 'tool_use') callIds.add(block.id);
  }
}

/**
 * Whether an assistant Msg is another agent's speech. `assistantMsg()`'s default name,
 * `"assistant"`, counts as the formatting agent's own: memory seeded with plain assistant
 * messages, or a hook's replacement reply, must not turn into user turns.
 */
function isOtherAgent(msg: Msg, selfName: string | undefined): boolean {
  return selfName !== undefined && msg.name !== selfName && msg.name !== 'assistant';
}

/** Pushes the tool results whose call is in the request. */
function pushToolResults(
  results: WireResults,
  callIds: ReadonlySet<string>,
  out: ChatMessage[],
): void {
  if (results === undefined) return;
  if (!isList(results)) {
    if (callIds.has(results.tool_call_id)) out.push(results);
    return;
  }
  for (let i = 0; i < results.length; i++) {
    const result = results[i]!;
    if (callIds.has(result.tool_call_id)) out.push(result);
  }
}

function isList(results: NonNullable<WireResults>): results is readonly ToolChatMessage[] {
  return Array.isArray(results);
}

/** Whether the reasoning `msg` recorded may go back to `model`: the model that produced it. */
function sentBack(msg: Msg, model: string | undefined): boolean {
  return model !== undefined && msg.metadata['model'] === model;
}
