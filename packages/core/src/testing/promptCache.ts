import type { JsonObject } from '../json.js';

/** What a simulated prompt cache reported for one request (the strict test servers). */
export interface CacheUsage {
  /** Every input token of the request, by the servers' estimate (`ceil(chars / 4)`). */
  readonly inputTokens: number;
  /** Of those, the tokens read from the cache. */
  readonly cachedTokens: number;
  /** Of those, the tokens written to the cache (Anthropic's `cache_creation_input_tokens`; 0 for OpenAI). */
  readonly writtenTokens: number;
}

/** The smallest prefix OpenAI caches, in tokens. */
export const OPENAI_CACHE_MIN_TOKENS = 1024;
/** OpenAI's cache granularity: a hit counts whole steps of this many tokens. */
export const OPENAI_CACHE_STEP_TOKENS = 128;

/** The test servers' token estimate: a quarter of the characters, rounded up. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/**
 * The text OpenAI's simulated cache compares: `JSON.stringify(body.tools ?? [])` followed by
 * `JSON.stringify(body.messages ?? [])`, the body's own key order and bytes kept (so any
 * change of a tool schema, a message or their order changes the prefix from that point on).
 */
export function openAIPromptText(body: JsonObject): string {
  return JSON.stringify(body['tools'] ?? []) + JSON.stringify(body['messages'] ?? []);
}

/**
 * OpenAI's automatic prompt caching as documented, simulated: a request reads from the cache
 * the longest prefix it shares with any request served before (compared character by
 * character on `openAIPromptText`), counted in whole tokens (`floor(chars / 4)`), rounded down
 * to a multiple of 128 tokens, and only when that is at least 1,024 tokens; else nothing.
 * Every served request's text is remembered (no expiry).
 */
export class OpenAIPromptCache {
  readonly #seen: string[] = [];

  /** Serves one request: what it read from the cache, and it is remembered for later ones. */
  serve(body: JsonObject): CacheUsage {
    const text = openAIPromptText(body);
    let longest = 0;
    for (const earlier of this.#seen) longest = Math.max(longest, commonPrefix(text, earlier));
    this.#seen.push(text);
    const shared = Math.floor(longest / 4);
    const cachedTokens =
      shared < OPENAI_CACHE_MIN_TOKENS
        ? 0
        : Math.floor(shared / OPENAI_CACHE_STEP_TOKENS) * OPENAI_CACHE_STEP_TOKENS;
    return { inputTokens: estimateTokens(text.length), cachedTokens, writtenTokens: 0 };
  }
}

/** The number of leading characters `a` and `b` share. */
export function commonPrefix(a: string, b: string): number {
  const end = Math.min(a.length, b.length);
  // Compare in slices first: long shared prefixes are the common case.
  let at = 0;
  const step = 1024;
  while (at + step <= end && a.slice(at, at + step) === b.slice(at, at + step)) at += step;
  while (at < end && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  return at;
}

/**
 * The share of a session's input tokens read from a prompt cache: the sum of `cachedTokens`
 * over the sum of `inputTokens` of the requests that carry a `cache` record (those the strict
 * servers answered); 0 when there are none.
 *
 * @example
 * ```ts
 * const requests = [
 *   { cache: { inputTokens: 1200, cachedTokens: 0, writtenTokens: 0 } },
 *   { cache: { inputTokens: 1400, cachedTokens: 1152, writtenTokens: 0 } },
 * ];
 * console.log(cacheHitRatio(requests)); // 0.443… (or pass a strict server's `requests`)
 * ```
 */
export function cacheHitRatio(requests: readonly { readonly cache?: CacheUsage }[]): number {
  let input = 0;
  let cached = 0;
  for (const { cache } of requests) {
    if (cache === undefined) continue;
    input += cache.inputTokens;
    cached += cache.cachedTokens;
  }
  return input === 0 ? 0 : cached / input;
}
