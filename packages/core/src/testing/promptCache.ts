import { createHash } from 'node:crypto';
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

/** The characters of one 128-token step by the estimate (4 characters a token). */
const STEP_CHARS = OPENAI_CACHE_STEP_TOKENS * 4;

/**
 * OpenAI's automatic prompt caching as documented, simulated: a request reads from the cache
 * the longest prefix it shares with any request served before (compared character by
 * character on `openAIPromptText`), counted in whole tokens (`floor(chars / 4)`), rounded down
 * to a multiple of 128 tokens, and only when that is at least 1,024 tokens; else nothing.
 * Every served request is remembered (no expiry), as a chain of hashes of its 512-character
 * steps, so a request costs time in its own length only, however many came before.
 */
export class OpenAIPromptCache {
  readonly #prefixes = new Set<string>();

  /** Serves one request: what it read from the cache, and it is remembered for later ones. */
  serve(body: JsonObject): CacheUsage {
    const text = openAIPromptText(body);
    const inputTokens = estimateTokens(text.length);
    // A text under the minimum can neither hit nor give a later request a long enough prefix.
    if (text.length < OPENAI_CACHE_MIN_TOKENS * 4)
      return { inputTokens, cachedTokens: 0, writtenTokens: 0 };
    let shared = 0;
    let matching = true;
    let running = '';
    for (let at = STEP_CHARS; at <= text.length; at += STEP_CHARS) {
      // Each step's hash covers the whole prefix up to it: equal hashes, equal prefixes.
      running = createHash('sha1')
        .update(running)
        .update(text.slice(at - STEP_CHARS, at))
        .digest('base64');
      if (matching && this.#prefixes.has(running)) shared = at / STEP_CHARS;
      else matching = false;
      this.#prefixes.add(running);
    }
    const tokens = shared * OPENAI_CACHE_STEP_TOKENS;
    return {
      inputTokens,
      cachedTokens: tokens >= OPENAI_CACHE_MIN_TOKENS ? tokens : 0,
      writtenTokens: 0,
    };
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
