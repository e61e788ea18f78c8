import {
  type ChatModel,
  type CompressionStrategy,
  checkOptions,
  DEFAULT_KEEP_RECENT,
  InvalidArgumentError,
  optionNames,
  type TokenCounter,
} from '@rxagent/core';

/** The `context` option of a ReActAgent: how its requests are kept within a token budget. */
export interface ContextOptions {
  /** The most tokens a request (system prompt, messages, tool schemas) may count. */
  readonly maxTokens: number;
  /** The newest messages never compressed (default 6). */
  readonly keepRecent?: number;
  /** `'summarize'` (default): one tool-less request writes a summary; `'drop'`: a marker. */
  readonly strategy?: CompressionStrategy;
  /** Writes the summaries (default: the agent's model). */
  readonly summaryModel?: ChatModel;
  /** Counts a request's tokens (default `estimateTokens`, about 4 characters a token). */
  readonly countTokens?: TokenCounter;
}

const CONTEXT_KEYS = optionNames<ContextOptions>({
  maxTokens: true,
  keepRecent: true,
  strategy: true,
  summaryModel: true,
  countTokens: true,
});

/** `ContextOptions` checked, with its defaults filled in. */
export interface ContextSettings {
  readonly maxTokens: number;
  readonly keepRecent: number;
  readonly strategy: CompressionStrategy;
  readonly summaryModel: ChatModel;
  readonly countTokens?: TokenCounter;
}

/**
 * Checks a ReActAgent's `context` option (`undefined` stays `undefined`: no counting at
 * all) and fills in its defaults; `model` is the agent's, the default summary model.
 * Throws `InvalidArgumentError` naming the agent and the bad field, and a TypeError for an
 * unknown key.
 */
export function contextSettings(
  agentName: string,
  options: ContextOptions | undefined,
  model: ChatModel,
): ContextSettings | undefined {
  if (options === undefined) return undefined;
  const where = `ReActAgent "${agentName}": context`;
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError(`${where} must be an object like { maxTokens: 8000 }.`);
  }
  checkOptions(options, CONTEXT_KEYS, where);
  const { maxTokens, keepRecent = DEFAULT_KEEP_RECENT, strategy = 'summarize' } = options;
  if (!(Number.isInteger(maxTokens) && maxTokens > 0)) {
    throw new InvalidArgumentError(
      `${where}.maxTokens must be a positive whole number of tokens, got ${String(maxTokens)}.`,
    );
  }
  if (!(Number.isInteger(keepRecent) && keepRecent >= 0)) {
    throw new InvalidArgumentError(
      `${where}.keepRecent must be a whole number of messages (0 or more), got ${String(keepRecent)}.`,
    );
  }
  if (strategy !== 'summarize' && strategy !== 'drop') {
    throw new InvalidArgumentError(
      `${where}.strategy must be 'summarize' or 'drop', got ${JSON.stringify(strategy)}.`,
    );
  }
  const { summaryModel = model, countTokens } = options;
  if (typeof summaryModel?.stream !== 'function') {
    throw new InvalidArgumentError(`${where}.summaryModel must be a ChatModel.`);
  }
  if (countTokens !== undefined && typeof countTokens !== 'function') {
    throw new InvalidArgumentError(
      `${where}.countTokens must be a function (request) => number of tokens.`,
    );
  }
  return {
    maxTokens,
    keepRecent,
    strategy,
    summaryModel,
    ...(countTokens !== undefined && { countTokens }),
  };
}
