import type { JsonObject } from '../json.js';
import type { ChatRequest } from '../model/chatModel.js';

/** A tool call a scripted turn makes; a string `arguments` is sent raw (it may be invalid JSON on purpose). */
export interface ScriptedToolCall {
  /** The call id; generated (`call_<n>`, unique per model or server) when omitted. */
  id?: string;
  name: string;
  arguments: JsonObject | string;
}

/**
 * A scripted failure. With a `status` the request is answered with that HTTP error; without
 * one the connection is reset. With `afterChunks`, that many content chunks stream first
 * (the server then destroys the socket, the model errors).
 */
export interface ScriptedError {
  status?: number;
  message?: string;
  /** Response headers of the error (e.g. `retry-after`); server only. */
  headers?: Record<string, string>;
  afterChunks?: number;
}

/** One scripted model reply: what the model "generates" for one request. */
export interface ScriptedTurn {
  text?: string;
  thinking?: string;
  toolCalls?: ScriptedToolCall[];
  /**
   * Default: a deterministic estimate, `ceil(chars / 4)` of the request's messages (the strict
   * servers: of the JSON of its tools, system prompt and messages) and of the output. The
   * strict servers report their simulated cache reads within the input, capped at it.
   */
  usage?: {
    inputTokens: number;
    outputTokens: number;
    /** Input tokens read from a prompt cache (`ScriptedChatModel`; the strict servers simulate their own cache). */
    cachedInputTokens?: number;
  };
  /** Characters of text (and thinking) per streamed chunk; default: one word per chunk. */
  chunkSize?: number;
  /** Wait before the first chunk (abortable). */
  delayMs?: number;
  /** Wait between chunks (abortable). */
  chunkDelayMs?: number;
  /** Fail this request instead of answering it. */
  error?: ScriptedError;
  /**
   * The reply's finish reason; default `tool_calls` when it calls tools, else `stop`.
   * `'length'` stands for a reply cut by the output-token limit.
   */
  finishReason?: 'stop' | 'tool_calls' | 'length' | 'content_filter';
}

/**
 * One entry of a script: plain text, a turn, or a function of the request and the reply's
 * 0-based position in the script (which is also the number of requests answered before it).
 */
export type ScriptedReply =
  | string
  | ScriptedTurn
  | ((request: ChatRequest, index: number) => string | ScriptedTurn);

/** Turns a script entry into the turn it stands for (calls a function entry). */
export function resolveReply(
  reply: ScriptedReply,
  request: ChatRequest,
  index: number,
): ScriptedTurn {
  const value = typeof reply === 'function' ? reply(request, index) : reply;
  return typeof value === 'string' ? { text: value } : value;
}

/**
 * The error message for a request that arrived after the script ran out: it says how many
 * replies were scripted and quotes the request's last message, so the failing test shows
 * which step of the conversation was not scripted.
 */
export function scriptExhaustedMessage(
  owner: string,
  requestNumber: number,
  scripted: number,
  messages: unknown,
): string {
  return (
    `${owner} script exhausted: request #${requestNumber} arrived but only ${scripted} ` +
    `${scripted === 1 ? 'reply was' : 'replies were'} scripted. Last message of the request: ` +
    `${describeLastMessage(messages)}. Script one more reply (enqueue()) or find why the agent sent an extra request.`
  );
}

function describeLastMessage(messages: unknown): string {
  if (!Array.isArray(messages) || messages.length === 0) return '(none)';
  const last: unknown = messages[messages.length - 1];
  if (typeof last !== 'object' || last === null) return JSON.stringify(last);
  const { role, content, tool_call_id, tool_calls } = last as Record<string, unknown>;
  const who = typeof tool_call_id === 'string' ? `${String(role)} (${tool_call_id})` : String(role);
  const calls = Array.isArray(tool_calls) ? ` [+${tool_calls.length} tool call(s)]` : '';
  return `${who}: ${JSON.stringify(truncate(contentText(content), 200))}${calls}`;
}

/** The text of a wire message's `content` (a string or text parts); other parts are skipped. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) =>
      typeof part === 'object' &&
      part !== null &&
      typeof (part as { text?: unknown }).text === 'string'
        ? (part as { text: string }).text
        : '',
    )
    .join('');
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
