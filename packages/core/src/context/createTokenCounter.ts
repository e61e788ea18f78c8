import type { ChatMessage } from '../model/chatMessage.js';
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
 */
export function createTokenCounter(countText: (text: string) => number): TokenCounter {
  return (request: ContextRequest): number => {
    const format = request.formatter ?? formatMessages;
    const messages = format(request.messages, {
      systemPrompt: request.systemPrompt,
      ...(request.selfName !== undefined && { selfName: request.selfName }),
    });
    let tokens = REPLY_PRIMING;
    for (const message of messages) tokens += messageTokens(message, countText);
    for (const tool of request.tools) tokens += schemaTokens(tool, countText);
    return Math.ceil(tokens);
  };
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
  if (message.role === 'assistant' && message.tool_calls !== undefined) {
    for (const call of message.tool_calls) {
      tokens += PER_TOOL_CALL + countText(call.function.name) + countText(call.function.arguments);
    }
  }
  if (message.role === 'tool') tokens += countText(message.tool_call_id);
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
