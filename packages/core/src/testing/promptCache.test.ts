import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../json.js';
import { cacheHitRatio, commonPrefix, OpenAIPromptCache, openAIPromptText } from './promptCache.js';
import { startStrictOpenAIServer } from './strictOpenAIServer.js';

/** A body whose prompt text is exactly `chars` characters long plus a suffix. */
function body(content: string, extra: JsonObject[] = []): JsonObject {
  return { model: 'm', messages: [{ role: 'user', content }, ...extra] };
}

/** The prompt text length of a user message with `n` characters of content. */
const overhead = openAIPromptText(body('')).length;

describe('OpenAIPromptCache', () => {
  it('reads nothing on the first request and nothing below 1,024 shared tokens', () => {
    const cache = new OpenAIPromptCache();
    const small = 'a'.repeat(4 * 1023 - overhead);
    expect(cache.serve(body(small)).cachedTokens).toBe(0);
    // Identical again: the shared prefix is 1,022 whole tokens (under the minimum).
    const again = cache.serve(body(small));
    expect(again.cachedTokens).toBe(0);
    expect(again.inputTokens).toBe(Math.ceil(openAIPromptText(body(small)).length / 4));
  });

  it('reads the shared prefix from 1,024 tokens, in whole 128-token steps', () => {
    const cache = new OpenAIPromptCache();
    const base = 'b'.repeat(4 * 1024);
    cache.serve(body(base));
    // Shares the messages' text up to the end of `base` (the closing quote differs).
    const next = cache.serve(body(`${base}${'c'.repeat(4 * 300)}`));
    const shared = Math.floor(
      commonPrefix(openAIPromptText(body(base)), openAIPromptText(body(`${base}c`))) / 4,
    );
    expect(shared).toBeGreaterThanOrEqual(1024);
    expect(next.cachedTokens).toBe(Math.floor(shared / 128) * 128);
    expect(next.cachedTokens % 128).toBe(0);
    expect(next.writtenTokens).toBe(0);
    // A longer repeat finds the longest earlier prefix (the second request), not the first.
    const third = cache.serve(body(`${base}${'c'.repeat(4 * 300)}`));
    const whole = Math.floor(openAIPromptText(body(`${base}${'c'.repeat(4 * 300)}`)).length / 4);
    expect(third.cachedTokens).toBe(Math.floor(whole / 128) * 128);
    expect(third.cachedTokens).toBeGreaterThan(next.cachedTokens);
  });

  it('counts a change in a tool schema as a break from that point on', () => {
    const cache = new OpenAIPromptCache();
    const tools = (description: string) => [
      { type: 'function', function: { name: 'f', description, parameters: { type: 'object' } } },
    ];
    const long = 'x'.repeat(4 * 2000);
    cache.serve({ ...body(long), tools: tools('one') });
    expect(cache.serve({ ...body(long), tools: tools('two') }).cachedTokens).toBe(0);
    expect(cache.serve({ ...body(long), tools: tools('one') }).cachedTokens).toBeGreaterThan(1900);
  });

  it('agrees with the longest common prefix over any earlier request, on random sessions', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const cache = new OpenAIPromptCache();
    const seen: string[] = [];
    const sessions: string[][] = [[], [], []];
    for (let i = 0; i < 60; i++) {
      const session = sessions[random(3)]!;
      // Grow a session, or (sometimes) edit an earlier message of it: a cache break.
      if (session.length > 0 && random(5) === 0) session[random(session.length)] = `edited ${i}`;
      session.push('w'.repeat(200 + random(1500)));
      const request = body(
        session[0]!,
        session.slice(1).map((content) => ({ role: 'user', content })),
      );
      const text = openAIPromptText(request);
      const longest = Math.max(0, ...seen.map((earlier) => commonPrefix(text, earlier)));
      const whole = Math.floor(longest / 4);
      const expected = whole < 1024 ? 0 : Math.floor(whole / 128) * 128;
      expect(cache.serve(request).cachedTokens).toBe(expected);
      seen.push(text);
    }
  });

  it('cacheHitRatio sums cached over input tokens, skipping requests without a record', () => {
    expect(cacheHitRatio([])).toBe(0);
    expect(
      cacheHitRatio([
        { cache: { inputTokens: 100, cachedTokens: 0, writtenTokens: 0 } },
        {},
        { cache: { inputTokens: 300, cachedTokens: 200, writtenTokens: 0 } },
      ]),
    ).toBe(0.5);
  });
});

describe('startStrictOpenAIServer prompt caching', () => {
  it('always reports prompt_tokens_details.cached_tokens, and the cached prefix on a repeat', async () => {
    const server = await startStrictOpenAIServer({ script: ['one', 'two', 'three'] });
    try {
      const send = async (content: string, stream: boolean): Promise<JsonObject> => {
        const response = await fetch(`${server.baseURL}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            model: 'm',
            messages: [{ role: 'user', content }],
            stream,
            ...(stream && { stream_options: { include_usage: true } }),
          }),
        });
        const text = await response.text();
        if (!stream) return (JSON.parse(text) as { usage: JsonObject }).usage;
        const events = text
          .split('\n\n')
          .filter((line) => line.startsWith('data: {'))
          .map((line) => JSON.parse(line.slice(6)) as { usage?: JsonObject });
        return events.at(-1)!.usage!;
      };
      const long = 'z'.repeat(4 * 1500);
      const first = await send(long, false);
      expect(first['prompt_tokens_details']).toEqual({ cached_tokens: 0 });
      const prompt = Math.ceil(openAIPromptText(body(long)).length / 4);
      expect(first['prompt_tokens']).toBe(prompt);
      const second = await send(long, true);
      expect(second['prompt_tokens_details']).toEqual({ cached_tokens: 1408 });
      const third = await send('short', false);
      expect(third['prompt_tokens_details']).toEqual({ cached_tokens: 0 });
      expect(server.requests.map((r) => r.cache?.cachedTokens)).toEqual([0, 1408, 0]);
      expect(cacheHitRatio(server.requests)).toBeCloseTo(
        1408 / (2 * prompt + (third['prompt_tokens'] as number)),
        6,
      );
    } finally {
      await server.close();
    }
  });
});
