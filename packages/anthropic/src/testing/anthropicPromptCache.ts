import { createHash } from 'node:crypto';
import type { JsonObject } from '@rxagent/core';
import type { CacheUsage } from '@rxagent/core/testing';

/** The smallest prefix the simulated Anthropic cache writes, in tokens. */
export const ANTHROPIC_CACHE_MIN_TOKENS = 1024;
/** How many block boundaries before a breakpoint the cache looks back for a hit. */
export const ANTHROPIC_CACHE_LOOKBACK_BLOCKS = 20;

/** One block of a request's prompt, in cache order, and whether it carries `cache_control`. */
interface PromptBlock {
  readonly text: string;
  readonly breakpoint: boolean;
}

/**
 * The blocks of a Messages API body in the order the cache reads them: every tool, then
 * every system block (a string system prompt is one block), then every content block of
 * every message (a string content is one block). Each block's text is
 * `JSON.stringify` of the block without its `cache_control` field (the API does not make the
 * marker part of the cached content); a message block is serialised as
 * `JSON.stringify({ role, block })` so the same text in another role is another prefix.
 */
export function anthropicPromptBlocks(body: JsonObject): { text: string; breakpoint: boolean }[] {
  const blocks: PromptBlock[] = [];
  const add = (value: unknown, wrap: (block: unknown) => unknown): void => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const { cache_control: marker, ...rest } = value as JsonObject;
      blocks.push({ text: JSON.stringify(wrap(rest)), breakpoint: marker !== undefined });
    } else blocks.push({ text: JSON.stringify(wrap(value)), breakpoint: false });
  };
  const list = (value: unknown): unknown[] =>
    Array.isArray(value) ? value : value === undefined ? [] : [value];
  for (const tool of list(body['tools'])) add(tool, (block) => block);
  for (const block of list(body['system'])) add(block, (text) => text);
  for (const message of list(body['messages'])) {
    if (message === null || typeof message !== 'object') continue;
    const { role, content } = message as JsonObject;
    for (const block of list(content)) add(block, (inner) => ({ role, block: inner }));
  }
  return blocks;
}

/**
 * Anthropic's prompt caching as documented, simulated. A request's prompt is the sequence
 * of `anthropicPromptBlocks`; the prefix up to a block is identified by a running hash of the
 * block texts, and its size is `ceil(chars / 4)` tokens. For each `cache_control` breakpoint,
 * the cache looks for the longest earlier-written prefix ending at that block or at one of
 * the 20 block boundaries before it; the longest hit over all breakpoints is read
 * (`cache_read_input_tokens`). Then every breakpoint whose prefix is at least 1,024 tokens is
 * written (remembered); the tokens from the hit up to the last such breakpoint are
 * `cache_creation_input_tokens`. A prefix under 1,024 tokens is never cached. (The 4
 * breakpoint limit is checked by the request validation, a 400 like the API's.)
 */
export class AnthropicPromptCache {
  readonly #written = new Set<string>();

  /** Serves one request: what it read from and wrote to the cache. */
  serve(body: JsonObject): CacheUsage {
    const blocks = anthropicPromptBlocks(body);
    if (!blocks.some((block) => block.breakpoint)) {
      // Nothing to read or write: no hashing.
      const chars = blocks.reduce((sum, block) => sum + block.text.length, 0);
      return { inputTokens: Math.max(1, Math.ceil(chars / 4)), cachedTokens: 0, writtenTokens: 0 };
    }
    const hashes: string[] = [];
    const tokens: number[] = [];
    let chars = 0;
    let running = '';
    for (const block of blocks) {
      running = createHash('sha256').update(running).update(block.text).digest('hex');
      chars += block.text.length;
      hashes.push(running);
      tokens.push(Math.ceil(chars / 4));
    }
    const inputTokens = Math.max(1, Math.ceil(chars / 4));
    let read = 0;
    let lastWrite = -1;
    blocks.forEach((block, at) => {
      if (!block.breakpoint) return;
      for (let back = at; back >= Math.max(0, at - ANTHROPIC_CACHE_LOOKBACK_BLOCKS); back--) {
        if (this.#written.has(hashes[back]!)) {
          read = Math.max(read, tokens[back]!);
          break;
        }
      }
      if (tokens[at]! >= ANTHROPIC_CACHE_MIN_TOKENS) lastWrite = at;
    });
    let written = 0;
    blocks.forEach((block, at) => {
      if (block.breakpoint && tokens[at]! >= ANTHROPIC_CACHE_MIN_TOKENS)
        this.#written.add(hashes[at]!);
    });
    if (lastWrite >= 0) written = Math.max(0, tokens[lastWrite]! - read);
    return { inputTokens, cachedTokens: read, writtenTokens: written };
  }
}
