import type { Usage } from './chatModel.js';

/**
 * The share of `usage`'s input tokens read from a prompt cache (`cachedInputTokens /
 * inputTokens`, from 0 to 1), or `undefined` when the usage does not say
 * (`cachedInputTokens` absent) or has no input tokens.
 *
 * @example
 * ```ts
 * usageCacheRatio({ inputTokens: 1000, outputTokens: 5, totalTokens: 1005, cachedInputTokens: 900 }); // 0.9
 * ```
 */
export function usageCacheRatio(usage: Usage | undefined): number | undefined {
  if (usage === undefined || typeof usage.cachedInputTokens !== 'number') return undefined;
  if (!(usage.inputTokens > 0)) return undefined;
  return Math.min(1, Math.max(0, usage.cachedInputTokens / usage.inputTokens));
}
