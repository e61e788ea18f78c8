import type { JsonObject } from '../json.js';

/** Plain text spoken by the message's author. */
export interface TextBlock {
  readonly type: 'text';
  readonly text: string;
}

/**
 * A model's reasoning ("thinking") text, kept apart from what it says. Some providers
 * require it back on later requests: `signature` and `provider` hold what the server sent
 * with it (opaque JSON, kept in memory and state, sent back only to the model that produced
 * it; see `formatMessages`). `signature` is the provider's opaque proof of the block
 * (Anthropic's thinking signature), sent back unchanged; Anthropic's redacted thinking is a
 * block with empty `thinking` and `provider: { redacted: data }`.
 */
export interface ThinkingBlock {
  readonly type: 'thinking';
  readonly thinking: string;
  /** A signature the server attached to the reasoning (verbatim). */
  readonly signature?: string;
  /**
   * Provider data sent back with the reasoning. The OpenAI-compatible adapter records
   * `reasoningField` (`'reasoning_content'` or `'reasoning'`, the field that carried the
   * text) and `reasoningDetails` (OpenRouter's `reasoning_details`, merged).
   */
  readonly provider?: JsonObject;
}

/** A request to run a tool; `id` pairs it with its `tool_result`. */
export interface ToolUseBlock {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: JsonObject;
  /**
   * Provider data sent back with the call, opaque: the OpenAI-compatible adapter records the
   * call's `extra_content` (Gemini's `google.thought_signature`) as `extraContent`.
   */
  readonly provider?: JsonObject;
}

/** What a tool produced for the `tool_use` block with the same `id`. */
export interface ToolResultBlock {
  readonly type: 'tool_result';
  readonly id: string;
  readonly name: string;
  readonly output: string | ReadonlyArray<TextBlock | ImageBlock>;
  readonly isError?: boolean;
}

/** An image, by URL or base64 data URL. */
export interface ImageBlock {
  readonly type: 'image';
  readonly url: string;
}

/** Every kind of content a `Msg` can hold. */
export type ContentBlock = TextBlock | ThinkingBlock | ToolUseBlock | ToolResultBlock | ImageBlock;

/** A text block. */
export function textBlock(text: string): TextBlock {
  return { type: 'text', text };
}
