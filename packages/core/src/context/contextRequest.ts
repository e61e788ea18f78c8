import type { Msg } from '../message/msg.js';
import type { ToolSchema } from '../model/chatModel.js';
import type { Formatter } from '../model/formatMessages.js';

/**
 * What a model request holds before it is formatted: the system prompt, the messages
 * (memory plus anything added for this request, without the system prompt) and the tool
 * schemas. Token counters count its wire form: the chat messages `formatter` (default
 * `formatMessages`) makes of it, plus the tools.
 */
export interface ContextRequest {
  readonly systemPrompt: string;
  readonly messages: readonly Msg[];
  readonly tools: readonly ToolSchema[];
  /** The agent's formatter, when it has its own (default `formatMessages`). */
  readonly formatter?: Formatter;
  /** The agent's name, so its own assistant Msgs format as assistant turns. */
  readonly selfName?: string;
  /** The model the request goes to, so the reasoning sent back to it counts too. */
  readonly model?: string;
}

/**
 * Counts the tokens a request would take in the model's context window. Synchronous, since
 * it runs before every reasoning step; build an exact one for OpenAI models with
 * `openAITokenCounter` (`@rxagent/react-agent`), or wrap any tokenizer with
 * `createTokenCounter`.
 */
export type TokenCounter = (request: ContextRequest) => number;
