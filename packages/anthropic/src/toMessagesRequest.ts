import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  TextBlockParam,
  ThinkingConfigParam,
  Tool,
  ToolChoice as WireToolChoice,
} from '@anthropic-ai/sdk/resources/messages';
import type { ChatMessage, ChatRequest, JsonObject, ToolChoice, ToolSchema } from '@rxagent/core';
import { InvalidArgumentError } from '@rxagent/core';

/** The model-level settings `toMessagesRequest` merges under each request's own options. */
export interface MessagesRequestSettings {
  readonly model: string;
  readonly maxTokens: number;
  readonly temperature?: number;
  /** The API's own thinking setting, sent as given. */
  readonly thinking?: ThinkingConfigParam;
  /** Put `cache_control` on the system prompt, the last tool and the latest messages (see `toMessagesRequest`). */
  readonly cache: boolean;
  /** Body fields sent with every request. */
  readonly extraBody?: JsonObject;
}

const EPHEMERAL = { type: 'ephemeral' } as const;

/**
 * Maps a `ChatRequest` (OpenAI-style messages) to a streamed Messages API request (pure):
 * system messages become `system` blocks; tool calls become `tool_use` blocks and tool
 * results `tool_result` blocks of a user turn; the signed and redacted thinking of an
 * assistant turn goes first in it, unchanged; consecutive turns of one role are merged
 * (the API requires user and assistant to alternate); empty text is left out (the API
 * rejects empty text blocks); a conversation ending with an assistant turn gets a user turn
 * `Continue.` (a trailing assistant turn would be a prefill). `toolChoice` maps `'required'` to `{ type: 'any' }` and
 * `{ name }` to `{ type: 'tool', name }`; with thinking enabled a forced choice is sent as
 * `auto`, since the API rejects forced tool use while thinking.
 *
 * With `cache`, the request carries at most 4 `cache_control` breakpoints that roll forward
 * with the conversation: the last system block, the last tool, the last block of the final
 * message, and the last block of the message two turns before it (where the previous
 * request of a tool loop ended, so its cache entry is found however many blocks the new
 * turns added; thinking blocks cannot carry a breakpoint and are passed over).
 *
 * @throws InvalidArgumentError when no user or assistant message is left to send.
 */
export function toMessagesRequest(
  request: ChatRequest,
  settings: MessagesRequestSettings,
): MessageCreateParamsStreaming {
  const options = request.options ?? {};
  const body: Record<string, unknown> = {};
  if (settings.temperature !== undefined) body['temperature'] = settings.temperature;
  Object.assign(body, settings.extraBody, options.extra);
  if (options.temperature !== undefined) body['temperature'] = options.temperature;
  if (options.topP !== undefined) body['top_p'] = options.topP;
  if (options.stop !== undefined) body['stop_sequences'] = options.stop;
  body['model'] = settings.model;
  body['max_tokens'] = options.maxTokens ?? settings.maxTokens;
  body['stream'] = true;
  const { system, messages } = toMessages(request.messages);
  if (messages.length === 0) {
    throw new InvalidArgumentError(
      'AnthropicChatModel: the request has no user or assistant message to send.',
    );
  }
  if (system.length > 0) {
    if (settings.cache) system[system.length - 1] = { ...system.at(-1)!, cache_control: EPHEMERAL };
    body['system'] = system;
  }
  if (settings.cache) markLatest(messages);
  body['messages'] = messages;
  if (settings.thinking !== undefined) body['thinking'] = settings.thinking;
  const tools = request.tools ?? [];
  if (tools.length > 0) {
    body['tools'] = toTools(tools, settings.cache);
    const thinking = settings.thinking !== undefined && settings.thinking.type !== 'disabled';
    const choice = toToolChoice(request.toolChoice, request.parallelToolCalls, thinking);
    if (choice !== undefined) body['tool_choice'] = choice;
  }
  // Assembled from typed parts plus caller-supplied extras the SDK forwards as they are.
  return body as unknown as MessageCreateParamsStreaming;
}

function toTools(tools: readonly ToolSchema[], cache: boolean): Tool[] {
  return tools.map((schema, index) => {
    const tool: Tool = {
      name: schema.function.name,
      description: schema.function.description,
      input_schema: schema.function.parameters as Tool['input_schema'],
    };
    if (cache && index === tools.length - 1) tool.cache_control = EPHEMERAL;
    return tool;
  });
}

/**
 * Breakpoints on the final message and on the one two turns before it. A turn's content
 * array is its own and is changed in place; the marked block is a copy, since the blocks
 * may be kept ones, shared with other requests.
 */
function markLatest(messages: MessageParam[]): void {
  for (const at of [messages.length - 3, messages.length - 1]) {
    const content = messages[at]?.content;
    if (!Array.isArray(content)) continue;
    for (let index = content.length - 1; index >= 0; index--) {
      const block = content[index]!;
      if (block.type === 'thinking' || block.type === 'redacted_thinking') continue;
      content[index] = { ...block, cache_control: EPHEMERAL } as ContentBlockParam;
      break;
    }
  }
}

function toToolChoice(
  choice: ToolChoice | undefined,
  parallel: boolean | undefined,
  thinking: boolean,
): WireToolChoice | undefined {
  if (choice === 'none') return { type: 'none' };
  let wire: WireToolChoice;
  if (choice === undefined || choice === 'auto' || thinking) wire = { type: 'auto' };
  else if (choice === 'required') wire = { type: 'any' };
  else wire = { type: 'tool', name: choice.name };
  if (parallel === false) wire.disable_parallel_tool_use = true;
  else if (choice === undefined) return undefined;
  return wire;
}

interface Turn {
  role: 'user' | 'assistant';
  content: ContentBlockParam[];
}

function toMessages(chat: readonly ChatMessage[]): {
  system: TextBlockParam[];
  messages: MessageParam[];
} {
  const system: TextBlockParam[] = [];
  const turns: Turn[] = [];
  // A turn's content is always an array of its own: the blocks of a message may be the
  // kept ones (`blocksOf`), which every request shares.
  const push = (role: Turn['role'], blocks: readonly ContentBlockParam[]): void => {
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: [...blocks] });
  };
  for (const message of chat) {
    switch (message.role) {
      case 'system':
        // Before the conversation: the system prompt. Later: a framework note, as a user turn.
        if (turns.length === 0) {
          if (message.content !== '') system.push({ type: 'text', text: message.content });
        } else push('user', textBlocks(`[system] ${message.content}`));
        break;
      case 'user':
        push('user', blocksOf(message, userBlocks));
        break;
      case 'assistant':
        push('assistant', blocksOf(message, assistantBlocks));
        break;
      case 'tool':
        push('user', blocksOf(message, toolResultBlocks));
        break;
    }
  }
  // A trailing assistant turn would be a prefill, which thinking and newer models reject:
  // the conversation goes on with a user turn instead (a forced tool choice follows it).
  if (turns.at(-1)?.role === 'assistant') push('user', textBlocks(CONTINUE));
  return { system, messages: turns };
}

/**
 * The blocks of a frozen chat message (the formatter's, which every request of a
 * conversation shares), made once and kept for as long as the message lives, so a request
 * converts only the messages it has not seen (a tool call's arguments are parsed once). The
 * kept blocks are frozen: a breakpoint goes on a copy. A message that is not frozen may
 * still change, so its blocks are made anew.
 */
function blocksOf<M extends ChatMessage>(
  message: M,
  make: (message: M) => ContentBlockParam[],
): readonly ContentBlockParam[] {
  if (!Object.isFrozen(message)) return make(message);
  let blocks = keptBlocks.get(message);
  if (blocks === undefined) {
    blocks = deepFreeze(make(message));
    keptBlocks.set(message, blocks);
  }
  return blocks;
}

const keptBlocks = new WeakMap<ChatMessage, readonly ContentBlockParam[]>();

/** Freezes `value` and every object in it (blocks made here: parsed arguments, image sources). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function toolResultBlocks(message: ChatMessage & { role: 'tool' }): ContentBlockParam[] {
  return [{ type: 'tool_result', tool_use_id: message.tool_call_id, content: message.content }];
}

/** The user turn sent after a conversation that ends with the assistant's own turn. */
export const CONTINUE = 'Continue.';

function textBlocks(text: string): TextBlockParam[] {
  return text === '' ? [] : [{ type: 'text', text }];
}

/** A named speaker (another agent heard through a hub) is named in the text. */
function userBlocks({ content, name }: ChatMessage & { role: 'user' }): ContentBlockParam[] {
  const prefix = name !== undefined && name !== 'system' && name !== 'user' ? `${name}: ` : '';
  if (typeof content === 'string') return textBlocks(content === '' ? '' : prefix + content);
  const blocks: ContentBlockParam[] = [];
  for (const part of content) {
    if (part.type === 'text') blocks.push(...textBlocks(part.text));
    else blocks.push(imageBlock(part.image_url.url));
  }
  if (prefix !== '' && blocks[0]?.type === 'text') {
    blocks[0] = { ...blocks[0], text: prefix + blocks[0].text };
  }
  return blocks;
}

function imageBlock(url: string): ImageBlockParam {
  const data = /^data:(image\/[a-z+]+);base64,(.*)$/su.exec(url);
  if (data) {
    return {
      type: 'image',
      source: {
        type: 'base64',
        media_type: data[1] as 'image/png',
        data: data[2]!,
      },
    };
  }
  return { type: 'image', source: { type: 'url', url } };
}

function assistantBlocks(message: ChatMessage & { role: 'assistant' }): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  for (const thinking of message.thinking ?? []) {
    blocks.push(
      thinking.type === 'redacted_thinking'
        ? { type: 'redacted_thinking', data: thinking.data }
        : { type: 'thinking', thinking: thinking.thinking, signature: thinking.signature },
    );
  }
  blocks.push(...textBlocks(message.content));
  for (const call of message.tool_calls ?? []) {
    blocks.push({
      type: 'tool_use',
      id: call.id,
      name: call.function.name,
      input: parseInput(call.function.arguments),
    });
  }
  return blocks;
}

/** The formatter sends valid JSON arguments; anything else (a hand-made message) becomes `{}`. */
function parseInput(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}
