import type { TokenCounter } from './contextRequest.js';
import { createTokenCounter } from './createTokenCounter.js';

/** Characters per token of the default estimate: about right for English text and JSON. */
export const CHARS_PER_TOKEN = 4;

/**
 * The default `TokenCounter`: the request's wire form (formatted messages with the system
 * prompt, tool calls, tool schemas) at about 4 characters a token, plus OpenAI's per-message
 * overhead (see `createTokenCounter`). Fast and dependency-free; it overestimates dense
 * English a little and underestimates CJK text and long numbers, so leave some headroom in
 * `maxTokens`, or count exactly with `openAITokenCounter` from `@rxagent/react-agent`.
 */
export const estimateTokens: TokenCounter = createTokenCounter(
  (text) => text.length / CHARS_PER_TOKEN,
);
