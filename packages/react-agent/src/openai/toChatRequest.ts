import type { ChatMessage, ChatRequest, JsonObject } from '@rxagent/core';
import { toWireToolChoice } from '@rxagent/core';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';

/** Which body field carries the output-token limit. */
export type MaxTokensField = 'max_tokens' | 'max_completion_tokens';

/** The model-level settings `toChatRequest` merges under each request's own options. */
export interface ChatRequestSettings {
  readonly model: string;
  readonly stream: boolean;
  readonly maxTokensField: MaxTokensField;
  readonly temperature?: number;
  readonly maxTokens?: number;
  /** Extra body fields sent with every request (provider-specific knobs). */
  readonly extraBody?: JsonObject;
  /** Sent as `prompt_cache_key` (OpenAI's prompt-cache routing key). */
  readonly promptCacheKey?: string;
}

type Params = ChatCompletionCreateParamsStreaming | ChatCompletionCreateParamsNonStreaming;

/** One object for every streamed request (frozen: requests share it). */
const INCLUDE_USAGE = Object.freeze({ include_usage: true as const });

/**
 * Maps a `ChatRequest` to Chat Completions parameters (pure). Precedence, lowest first:
 * model defaults, `extraBody`, the request's `options.extra`, the request's options; the
 * fields the adapter owns (`model`, `messages`, `stream`, tools) always win. `tools` is sent
 * only when non-empty, and `tool_choice` / `parallel_tool_calls` only together with it,
 * since servers reject a tool choice without tools.
 */
export function toChatRequest(
  request: ChatRequest,
  settings: ChatRequestSettings & { stream: true },
): ChatCompletionCreateParamsStreaming;
export function toChatRequest(
  request: ChatRequest,
  settings: ChatRequestSettings & { stream: false },
): ChatCompletionCreateParamsNonStreaming;
export function toChatRequest(request: ChatRequest, settings: ChatRequestSettings): Params;
export function toChatRequest(request: ChatRequest, settings: ChatRequestSettings): Params {
  const options = request.options ?? {};
  const body: Record<string, unknown> = {};
  if (settings.temperature !== undefined) body['temperature'] = settings.temperature;
  if (settings.maxTokens !== undefined) body[settings.maxTokensField] = settings.maxTokens;
  if (settings.promptCacheKey !== undefined) body['prompt_cache_key'] = settings.promptCacheKey;
  Object.assign(body, settings.extraBody, options.extra);
  if (options.temperature !== undefined) body['temperature'] = options.temperature;
  if (options.topP !== undefined) body['top_p'] = options.topP;
  if (options.maxTokens !== undefined) body[settings.maxTokensField] = options.maxTokens;
  if (options.seed !== undefined) body['seed'] = options.seed;
  if (options.stop !== undefined) body['stop'] = options.stop;
  body['model'] = settings.model;
  body['messages'] = withoutThinking(request.messages);
  body['stream'] = settings.stream;
  if (settings.stream) body['stream_options'] = INCLUDE_USAGE;
  else delete body['stream_options'];
  const tools = request.tools ?? [];
  if (tools.length > 0) {
    body['tools'] = tools;
    if (request.toolChoice !== undefined)
      body['tool_choice'] = toWireToolChoice(request.toolChoice);
    if (request.parallelToolCalls !== undefined) {
      body['parallel_tool_calls'] = request.parallelToolCalls;
    }
  }
  // The body is assembled from typed parts plus caller-supplied extras the SDK forwards as-is.
  return body as unknown as Params;
}

/**
 * The messages without the `thinking` an Anthropic model signed (not a Chat Completions
 * field, which OpenAI rejects); the same array when no message has any. The copy of a
 * frozen message (the formatter's, shared by every request) is made once, and frozen too.
 */
function withoutThinking(messages: ChatMessage[]): ChatMessage[] {
  if (!messages.some((message) => message.role === 'assistant' && message.thinking)) {
    return messages;
  }
  return messages.map((message) => {
    if (message.role !== 'assistant' || message.thinking === undefined) return message;
    if (!Object.isFrozen(message)) return unsigned(message);
    let copy = unsignedCopies.get(message);
    if (copy === undefined) {
      copy = Object.freeze(unsigned(message));
      unsignedCopies.set(message, copy);
    }
    return copy;
  });
}

const unsignedCopies = new WeakMap<ChatMessage, ChatMessage>();

function unsigned(message: ChatMessage & { role: 'assistant' }): ChatMessage {
  const { thinking: _signed, ...rest } = message;
  return rest;
}

/**
 * The output-limit field for a server. OpenAI's reasoning models reject `max_tokens`, so
 * OpenAI and Azure get `max_completion_tokens`; every other OpenAI-compatible server gets
 * `max_tokens`, because Ollama and older llama.cpp builds silently ignore
 * `max_completion_tokens` (an unbounded generation) while all of them honour `max_tokens`.
 */
export function defaultMaxTokensField(baseURL: string | undefined): MaxTokensField {
  if (baseURL === undefined) return 'max_completion_tokens';
  let host: string;
  try {
    host = new URL(baseURL).hostname;
  } catch {
    return 'max_tokens';
  }
  const isOpenAI = host === 'api.openai.com' || host.endsWith('.openai.azure.com');
  return isOpenAI ? 'max_completion_tokens' : 'max_tokens';
}
