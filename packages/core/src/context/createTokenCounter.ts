import type { Msg } from '../message/msg.js';
import { toolOutputText } from '../message/readers.js';
import type { AssistantChatMessage, ChatMessage } from '../model/chatMessage.js';
import type { ToolSchema } from '../model/chatModel.js';
import { formatMessages } from '../model/formatMessages.js';
import type { ContextRequest, TokenCounter } from './contextRequest.js';

/** Tokens every chat message costs besides its content (OpenAI's documented count). */
const PER_MESSAGE = 3;
/** Tokens a message's `name` costs besides its text. */
const PER_NAME = 1;
/** Tokens that prime the reply (`<|start|>assistant<|message|>`). */
const REPLY_PRIMING = 3;
/** Tokens per tool call and per tool schema besides their text (measured, approximate). */
const PER_TOOL_CALL = 3;
const PER_TOOL_SCHEMA = 8;
/** Tokens an image costs: OpenAI's price of one high-detail 512-pixel tile plus its base. */
const PER_IMAGE = 255;

/**
 * Builds a `TokenCounter` from a function that counts the tokens of one string. The request
 * is formatted the way it is sent (`request.formatter`, default `formatMessages`), and
 * counted the way OpenAI documents for chat models: every message costs 3 tokens plus its
 * role, content and name (a name 1 more), and 3 more prime the reply. Tool calls count their
 * name and arguments, tool schemas their name, description and parameters JSON (both
 * approximations of how the provider renders them), an image a fixed 255. The sum is rounded
 * up, so `countText` may return fractions.
 *
 * With the default formatter a request is counted from each message's own count plus its
 * tool results whose call is in the request, exactly as `formatMessages` keeps them; the
 * counts of the last request counted are kept (Msgs are immutable), so the next request of
 * the same conversation, which starts with the same Msgs, counts only the new ones instead
 * of formatting the whole conversation again before every reasoning step.
 */
export function createTokenCounter(countText: (text: string) => number): TokenCounter {
  let last: CountedMessages | undefined;
  return (request: ContextRequest): number => {
    let tokens = REPLY_PRIMING;
    const format = request.formatter;
    if (format === undefined || format === formatMessages) {
      if (request.systemPrompt) {
        tokens += messageTokens({ role: 'system', content: request.systemPrompt }, countText);
      }
      last = countMessages(request.messages, formatting(request), countText, last);
      const callIds = new Set<string>();
      for (const count of last.counts) {
        tokens += count.own;
        for (const id of count.callIds) callIds.add(id);
        for (const [id, result] of count.results) if (callIds.has(id)) tokens += result;
      }
    } else {
      const messages = format(request.messages, {
        systemPrompt: request.systemPrompt,
        ...formatting(request),
      });
      for (const message of messages) tokens += messageTokens(message, countText);
    }
    for (const tool of request.tools) tokens += schemaTokens(tool, countText);
    return Math.ceil(tokens);
  };
}

/** How a request's Msgs are formatted: for which agent, to which model. */
interface Formatting {
  readonly selfName?: string;
  readonly model?: string;
}

function formatting({ selfName, model }: ContextRequest): Formatting {
  if (selfName === undefined) return model === undefined ? {} : { model };
  return model === undefined ? { selfName } : { selfName, model };
}

/** The counts of the last request's messages, one per Msg, kept for the next request. */
interface CountedMessages {
  readonly msgs: readonly Msg[];
  readonly formatting: Formatting;
  readonly counts: readonly MsgCount[];
}

/**
 * The count of each of `msgs`, taken from `last` for the Msgs it starts with (memory grows
 * at its end, so an agent's next request repeats its last one and adds a few), counted for
 * the rest.
 */
function countMessages(
  msgs: readonly Msg[],
  formatting: Formatting,
  countText: (text: string) => number,
  last: CountedMessages | undefined,
): CountedMessages {
  const counts = new Array<MsgCount>(msgs.length);
  let i = 0;
  if (
    last !== undefined &&
    last.formatting.selfName === formatting.selfName &&
    last.formatting.model === formatting.model
  ) {
    const shared = Math.min(last.msgs.length, msgs.length);
    while (i < shared && last.msgs[i] === msgs[i]) {
      counts[i] = last.counts[i]!;
      i++;
    }
  }
  for (; i < msgs.length; i++) counts[i] = countMsg(msgs[i]!, formatting, countText);
  return { msgs, formatting, counts };
}

/**
 * One Msg's part of a request formatted by `formatMessages`: what it always adds (`own`: the
 * Msg formatted alone, its own calls' results included), the tool calls it makes, and its
 * results for calls made elsewhere, which count only when their call is in the request.
 */
interface MsgCount {
  readonly own: number;
  readonly callIds: readonly string[];
  readonly results: readonly (readonly [id: string, tokens: number])[];
}

function countMsg(msg: Msg, formatting: Formatting, countText: (text: string) => number): MsgCount {
  const { selfName } = formatting;
  let own = 0;
  const callIds: string[] = [];
  for (const message of formatMessages([msg], formatting)) {
    own += messageTokens(message, countText);
    if (message.role === 'assistant')
      for (const call of message.tool_calls ?? []) callIds.push(call.id);
  }
  const results: (readonly [string, number])[] = [];
  // Results are sent from user and tool Msgs and the agent's own assistant Msgs, as
  // `formatMessages` does; a system Msg or another agent's turn sends none.
  const sendsResults =
    msg.role === 'user' ||
    msg.role === 'tool' ||
    (msg.role === 'assistant' &&
      (selfName === undefined || msg.name === selfName || msg.name === 'assistant'));
  if (!sendsResults) return { own, callIds, results };
  for (const block of msg.content) {
    if (block.type !== 'tool_result' || callIds.includes(block.id)) continue;
    const wire: ChatMessage = {
      role: 'tool',
      tool_call_id: block.id,
      content: toolOutputText(block),
    };
    results.push([block.id, messageTokens(wire, countText)]);
  }
  return { own, callIds, results };
}

function messageTokens(message: ChatMessage, countText: (text: string) => number): number {
  let tokens = PER_MESSAGE + countText(message.role);
  if ('name' in message && message.name !== undefined) {
    tokens += PER_NAME + countText(message.name);
  }
  const { content } = message;
  if (typeof content === 'string') tokens += countText(content);
  else {
    for (const part of content) {
      tokens += part.type === 'text' ? countText(part.text) : PER_IMAGE;
    }
  }
  if (message.role === 'assistant') tokens += assistantExtras(message, countText);
  if (message.role === 'tool') tokens += countText(message.tool_call_id);
  return tokens;
}

/** An assistant message's tool calls and the reasoning it sends back. */
function assistantExtras(
  message: AssistantChatMessage,
  countText: (text: string) => number,
): number {
  let tokens = 0;
  if (message.tool_calls !== undefined) {
    for (const call of message.tool_calls) {
      tokens += PER_TOOL_CALL + countText(call.function.name) + countText(call.function.arguments);
      if (call.extra_content !== undefined) tokens += countText(JSON.stringify(call.extra_content));
    }
  }
  if (message.reasoning_content !== undefined) tokens += countText(message.reasoning_content);
  if (message.reasoning !== undefined) tokens += countText(message.reasoning);
  if (message.reasoning_details !== undefined)
    tokens += countText(JSON.stringify(message.reasoning_details));
  return tokens;
}

function schemaTokens(tool: ToolSchema, countText: (text: string) => number): number {
  const { name, description, parameters } = tool.function;
  return (
    PER_TOOL_SCHEMA +
    countText(name) +
    countText(description) +
    countText(parametersJson(parameters))
  );
}

/** Parameters JSON per frozen schema object: toolkit schemas are frozen and reused every turn. */
const jsonCache = new WeakMap<object, string>();

function parametersJson(parameters: object): string {
  let json = jsonCache.get(parameters);
  if (json === undefined) {
    json = JSON.stringify(parameters);
    if (Object.isFrozen(parameters)) jsonCache.set(parameters, json);
  }
  return json;
}
