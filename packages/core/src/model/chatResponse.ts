import { ModelError } from '../errors.js';
import type { JsonObject } from '../json.js';
import type { ThinkingBlock } from '../message/contentBlock.js';
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
  /**
   * The thinking as separate blocks, present only when the provider signed or redacted some
   * (`thinking` then still holds all the thinking text joined).
   */
  readonly thinkingBlocks?: readonly ThinkingBlock[];
  /** The model that answered, when a chunk named it (see `ChatChunk.model`). */
  readonly model?: string;
  /** Metadata entries chunks asked the reply to carry. */
  readonly metadata?: JsonObject;
}

/** One thinking block being streamed: its text parts, then its signature or redacted data. */
interface ThinkingParts {
  parts: string[];
  signature?: string;
  redacted?: string;
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
  #textLength = 0;
  /** Thinking split into blocks: made only once a signature or a redacted block arrives. */
  #thinkingBlocks: ThinkingParts[] | undefined;
  #model: string | undefined;
  #metadata: JsonObject | undefined;

  /** Adds one chunk. */
  add(chunk: ChatChunk): void {
    if (chunk.text) {
      this.#text.push(chunk.text);
      this.#textLength += chunk.text.length;
    }
    if (chunk.thinking) this.#addThinking(chunk.thinking);
    if (chunk.reasoningField) this.#reasoningField = chunk.reasoningField;
    if (chunk.reasoningDetails) {
      this.#details ??= new ReasoningDetails();
      this.#details.add(chunk.reasoningDetails);
    }
    if (chunk.toolCalls) for (const delta of chunk.toolCalls) this.#addToolCall(delta);
    if (chunk.usage) this.#usage = chunk.usage;
    if (chunk.finishReason) this.#finishReason = chunk.finishReason;
    if (chunk.thinkingSignature !== undefined || chunk.redactedThinking !== undefined) {
      this.#addThinkingMark(chunk.thinkingSignature, chunk.redactedThinking);
    }
    if (chunk.model !== undefined) this.#model = chunk.model;
    if (chunk.metadata !== undefined) this.#metadata = { ...this.#metadata, ...chunk.metadata };
  }

  /** Whether any text, thinking or tool call has arrived. */
  get hasContent(): boolean {
    return (
      this.#text.length > 0 ||
      this.#thinking.length > 0 ||
      this.#toolCalls.length > 0 ||
      this.#details !== undefined ||
      this.#thinkingBlocks !== undefined
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
      ...(this.#thinkingBlocks && { thinkingBlocks: this.#thinkingBlocks.map(toThinkingBlock) }),
      ...(this.#model !== undefined && { model: this.#model }),
      ...(this.#metadata && { metadata: this.#metadata }),
    };
  }

  #addThinking(text: string): void {
    this.#thinking.push(text);
    const blocks = this.#thinkingBlocks;
    if (blocks === undefined) return;
    const last = blocks[blocks.length - 1];
    if (last === undefined || last.signature !== undefined || last.redacted !== undefined) {
      blocks.push({ parts: [text] });
    } else last.parts.push(text);
  }

  /** A signature closes the open thinking block; a redacted block is a block of its own. */
  #addThinkingMark(signature: string | undefined, redacted: string | undefined): void {
    if (this.#thinkingBlocks === undefined) {
      // The thinking so far (unsigned until now) becomes the first block.
      this.#thinkingBlocks = this.#thinking.length > 0 ? [{ parts: [...this.#thinking] }] : [];
    }
    const blocks = this.#thinkingBlocks;
    if (signature !== undefined) {
      const last = blocks[blocks.length - 1];
      if (last === undefined || last.signature !== undefined || last.redacted !== undefined) {
        blocks.push({ parts: [], signature });
      } else last.signature = signature;
    }
    if (redacted !== undefined) blocks.push({ parts: [], redacted });
  }

  #join(parts: string[]): string {
    if (parts.length > 1) parts.splice(0, parts.length, parts.join(''));
    return parts[0] ?? '';
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

function toThinkingBlock(block: ThinkingParts): ThinkingBlock {
  const thinking = block.parts.join('');
  if (block.redacted !== undefined) {
    return { type: 'thinking', thinking, provider: { redacted: block.redacted } };
  }
  return block.signature === undefined
    ? { type: 'thinking', thinking }
    : { type: 'thinking', thinking, signature: block.signature };
}

function describe(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** Adds two usages (either may be missing). */
export function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!a) return b;
  if (!b) return a;
  const sum: Usage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
  if (a.cacheReadTokens !== undefined || b.cacheReadTokens !== undefined) {
    sum.cacheReadTokens = (a.cacheReadTokens ?? 0) + (b.cacheReadTokens ?? 0);
  }
  if (a.cacheWriteTokens !== undefined || b.cacheWriteTokens !== undefined) {
    sum.cacheWriteTokens = (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0);
  }
  if (a.cachedInputTokens !== undefined || b.cachedInputTokens !== undefined) {
    sum.cachedInputTokens = (a.cachedInputTokens ?? 0) + (b.cachedInputTokens ?? 0);
  }
  return sum;
}
