import { ModelError } from '../errors.js';
import type { JsonObject } from '../json.js';
import type { ChatChunk, ReasoningField, ToolCallDelta, Usage } from './chatModel.js';
import { ReasoningDetails } from './reasoningDetails.js';

/**
 * The largest tool-call `index` a response may use. Real servers number the calls of one
 * reply 0, 1, 2…; a larger (or non-integer) index is a malformed response, never an array
 * slot to allocate.
 */
export const MAX_TOOL_CALL_INDEX = 127;

/** Whether `index` is a tool-call index a response may use: an integer in 0…`MAX_TOOL_CALL_INDEX`. */
export function isValidToolCallIndex(index: unknown): index is number {
  return (
    typeof index === 'number' &&
    Number.isInteger(index) &&
    index >= 0 &&
    index <= MAX_TOOL_CALL_INDEX
  );
}

/** A tool call assembled from its deltas; `arguments` is the raw JSON text the model sent. */
export interface AssembledToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  /** What the server sent beside the call (`extra_content`), to send back with it. */
  readonly extraContent?: JsonObject;
}

/** A complete model response, assembled from chunks. */
export interface ChatResponse {
  readonly text: string;
  readonly thinking: string;
  readonly toolCalls: readonly AssembledToolCall[];
  readonly usage?: Usage;
  readonly finishReason?: string;
  /** The field that carried the reasoning text (the last one seen). */
  readonly reasoningField?: ReasoningField;
  /** OpenRouter's `reasoning_details`, its streamed pieces merged by `index`. */
  readonly reasoningDetails?: readonly JsonObject[];
  readonly thinkingSignature?: string;
}

interface ToolCallParts {
  id: string;
  name: string;
  args: string[];
  extraContent?: JsonObject;
}

/**
 * Accumulates streamed chunks into a `ChatResponse` in time linear in the response's
 * length: deltas are appended to part lists and joined once, in `response()`.
 *
 * Tool-call deltas join the call open at their `index`; a delta carrying a different id
 * at that index starts a new call (servers that number parallel calls all 0). `add()`
 * never throws, since it runs inside subscribers: a malformed chunk (an index that is not
 * an integer in 0…`MAX_TOOL_CALL_INDEX`) is remembered and `response()` throws it as a
 * `ModelError`.
 */
export class ChatResponseAccumulator {
  #text: string[] = [];
  #thinking: string[] = [];
  /** Calls in the order they started. */
  #toolCalls: ToolCallParts[] = [];
  /** The call currently open at each index. */
  #open: (ToolCallParts | undefined)[] = [];
  #error: ModelError | undefined;
  #usage: Usage | undefined;
  #finishReason: string | undefined;
  #reasoningField: ReasoningField | undefined;
  #details: ReasoningDetails | undefined;
  #signature: string[] | undefined;
  #textLength = 0;

  /** Adds one chunk. */
  add(chunk: ChatChunk): void {
    if (chunk.text) {
      this.#text.push(chunk.text);
      this.#textLength += chunk.text.length;
    }
    if (chunk.thinking) this.#thinking.push(chunk.thinking);
    if (chunk.reasoningField) this.#reasoningField = chunk.reasoningField;
    if (chunk.reasoningDetails || chunk.thinkingSignature) this.#addReasoningData(chunk);
    if (chunk.toolCalls) for (const delta of chunk.toolCalls) this.#addToolCall(delta);
    if (chunk.usage) this.#usage = chunk.usage;
    if (chunk.finishReason) this.#finishReason = chunk.finishReason;
  }

  /** Whether any text, thinking or tool call has arrived. */
  get hasContent(): boolean {
    return (
      this.#text.length > 0 ||
      this.#thinking.length > 0 ||
      this.#toolCalls.length > 0 ||
      this.#details !== undefined
    );
  }

  /** Characters of text received so far. */
  get textLength(): number {
    return this.#textLength;
  }

  /** The text received so far (joins the parts: call it once, not per chunk). */
  text(): string {
    return this.#join(this.#text);
  }

  /**
   * The response so far. Tool calls that never got an id get a generated one.
   * @throws ModelError when a chunk was malformed (see the class summary).
   */
  response(): ChatResponse {
    if (this.#error) throw this.#error;
    const details = this.#details?.merged();
    return {
      text: this.text(),
      thinking: this.#join(this.#thinking),
      toolCalls: this.#toolCalls.map((call, position) => ({
        id: call.id || `call_${position}_${Date.now().toString(36)}`,
        name: call.name,
        arguments: call.args.join(''),
        ...(call.extraContent && { extraContent: call.extraContent }),
      })),
      ...(this.#usage && { usage: this.#usage }),
      ...(this.#finishReason !== undefined && { finishReason: this.#finishReason }),
      ...(this.#reasoningField && { reasoningField: this.#reasoningField }),
      ...(details && details.length > 0 && { reasoningDetails: details }),
      ...(this.#signature && { thinkingSignature: this.#join(this.#signature) }),
    };
  }

  #join(parts: string[]): string {
    if (parts.length > 1) parts.splice(0, parts.length, parts.join(''));
    return parts[0] ?? '';
  }

  #addReasoningData({ reasoningDetails, thinkingSignature }: ChatChunk): void {
    if (reasoningDetails) {
      this.#details ??= new ReasoningDetails();
      this.#details.add(reasoningDetails);
    }
    if (thinkingSignature) {
      this.#signature ??= [];
      this.#signature.push(thinkingSignature);
    }
  }

  #addToolCall(delta: ToolCallDelta): void {
    const index: unknown = delta.index;
    if (!isValidToolCallIndex(index)) {
      this.#error ??= new ModelError(
        `The model sent a tool-call index of ${describe(index)}; an index must be an integer from 0 to ${MAX_TOOL_CALL_INDEX}.`,
      );
      return;
    }
    let call = this.#open[index];
    if (!call || (delta.id && call.id && delta.id !== call.id)) {
      call = { id: '', name: '', args: [] };
      this.#open[index] = call;
      this.#toolCalls.push(call);
    }
    if (delta.id) call.id = delta.id;
    // OpenAI sends the name once; some servers repeat it in every delta, others split it.
    if (delta.name && delta.name !== call.name) call.name += delta.name;
    if (delta.arguments) call.args.push(delta.arguments);
    if (delta.extraContent)
      call.extraContent = call.extraContent
        ? { ...call.extraContent, ...delta.extraContent }
        : delta.extraContent;
  }
}

function describe(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** Adds two usages (either may be missing). */
export function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!a) return b;
  if (!b) return a;
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}
