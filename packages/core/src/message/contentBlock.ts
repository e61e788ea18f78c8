import type { JsonObject } from '../json.js';

/** Plain text spoken by the message's author. */
export interface TextBlock {
  readonly type: 'text';
  readonly text: string;
}

/**
 * A model's reasoning ("thinking") text, kept apart from what it says. `signature` is the
 * provider's opaque proof of the block (Anthropic's thinking signature), sent back unchanged;
 * `provider` holds other opaque provider data (Anthropic's redacted thinking is a block with
 * empty `thinking` and `provider: { redacted: data }`).
 */
export interface ThinkingBlock {
  readonly type: 'thinking';
  readonly thinking: string;
  readonly signature?: string;
  readonly provider?: JsonObject;
}

/** A request to run a tool; `id` pairs it with its `tool_result`. */
export interface ToolUseBlock {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: JsonObject;
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
