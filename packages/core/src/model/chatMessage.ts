import type { JsonObject } from '../json.js';

/**
 * OpenAI-style chat messages: the wire shape every `ChatModel` takes. These mirror the
 * Chat Completions request format so an adapter can pass them through unchanged.
 */
export type ChatMessage =
  | SystemChatMessage
  | UserChatMessage
  | AssistantChatMessage
  | ToolChatMessage;

/** The system prompt (or a system-role message from memory). */
export interface SystemChatMessage {
  role: 'system';
  content: string;
  name?: string;
}

/** One part of a multi-part user message. */
export type ChatContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } };

/** A user turn; framework feedback is a user message with `name: 'system'`. */
export interface UserChatMessage {
  role: 'user';
  content: string | ChatContentPart[];
  name?: string;
}

/** A tool call as it appears on an assistant message; `arguments` is always a JSON string. */
export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
  /** Provider data of the call, sent back as the server sent it (Gemini's thought signature). */
  extra_content?: JsonObject;
}

/**
 * Thinking a provider signed or redacted, sent back to it unchanged: a signed thinking block,
 * or a redacted one (`data` is the provider's opaque payload).
 */
export type ChatThinking =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string };

/**
 * An assistant turn; `content` is always present (`''` when the turn only calls tools). The
 * reasoning fields are sent back only to the model that produced them, in the field the
 * server used: `reasoning_content` (DeepSeek, vLLM) or `reasoning` (OpenRouter, Ollama), and
 * OpenRouter's `reasoning_details`.
 */
export interface AssistantChatMessage {
  role: 'assistant';
  content: string;
  name?: string;
  tool_calls?: ChatToolCall[];
  reasoning_content?: string;
  reasoning?: string;
  reasoning_details?: JsonObject[];
  /**
   * The turn's signed or redacted thinking, in order, for a provider that needs it back
   * (Anthropic). Not part of the Chat Completions format: OpenAI-compatible adapters drop it.
   */
  thinking?: ChatThinking[];
}

/** The result of one tool call, paired by `tool_call_id`. */
export interface ToolChatMessage {
  role: 'tool';
  content: string;
  tool_call_id: string;
}
