import type { JsonObject } from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import { AnthropicPromptCache, anthropicPromptBlocks } from './anthropicPromptCache.js';
import { startStrictAnthropicServer } from './strictAnthropicServer.js';

const MARK = { type: 'ephemeral' };

/** A user/assistant conversation of `turns` text blocks of `chars` characters each. */
function conversation(turns: number, chars: number, marks: number[] = []): JsonObject[] {
  return Array.from({ length: turns }, (_, at) => ({
    role: at % 2 === 0 ? 'user' : 'assistant',
    content: [
      {
        type: 'text',
        text: `${at}:${'w'.repeat(chars)}`,
        ...(marks.includes(at) && { cache_control: MARK }),
      },
    ],
  }));
}

function request(messages: JsonObject[], system?: JsonObject[]): JsonObject {
  return { model: 'claude-test', max_tokens: 16, ...(system && { system }), messages };
}

/** The estimate of the prefix up to and including block `at` (0-based). */
function tokensUpTo(body: JsonObject, at: number): number {
  const blocks = anthropicPromptBlocks(body).slice(0, at + 1);
  return Math.ceil(blocks.reduce((n, b) => n + b.text.length, 0) / 4);
}

describe('AnthropicPromptCache', () => {
  it('writes a breakpoint prefix of at least 1,024 tokens, then reads it', () => {
    const cache = new AnthropicPromptCache();
    const system = [{ type: 'text', text: 's'.repeat(4200), cache_control: MARK }];
    const body = request(conversation(1, 10), system);
    const first = cache.serve(body);
    expect(first.cachedTokens).toBe(0);
    expect(first.writtenTokens).toBe(tokensUpTo(body, 0));
    expect(first.writtenTokens).toBeGreaterThanOrEqual(1024);
    const second = cache.serve(body);
    expect(second.cachedTokens).toBe(first.writtenTokens);
    expect(second.writtenTokens).toBe(0);
    expect(second.inputTokens).toBe(tokensUpTo(body, 1));
  });

  it('never caches a prefix under 1,024 tokens', () => {
    const cache = new AnthropicPromptCache();
    const system = [{ type: 'text', text: 's'.repeat(3000), cache_control: MARK }];
    const body = request(conversation(1, 10), system);
    expect(tokensUpTo(body, 0)).toBeLessThan(1024);
    expect(cache.serve(body)).toMatchObject({ cachedTokens: 0, writtenTokens: 0 });
    expect(cache.serve(body)).toMatchObject({ cachedTokens: 0, writtenTokens: 0 });
  });

  it('ignores cache_control itself: moving a breakpoint keeps the prefix', () => {
    const cache = new AnthropicPromptCache();
    const first = request(conversation(3, 2000, [2]));
    cache.serve(first);
    // The breakpoint moved on to the newest block: the earlier one is found looking back.
    const second = cache.serve(request(conversation(5, 2000, [4])));
    expect(second.cachedTokens).toBe(tokensUpTo(first, 2));
    expect(second.writtenTokens).toBe(
      tokensUpTo(request(conversation(5, 2000)), 4) - second.cachedTokens,
    );
  });

  it('finds a hit up to 20 blocks before a breakpoint, and not 21', () => {
    // Three long messages cached at their end (block 2), then small ones, marked at the last.
    const grown = (turns: number): JsonObject => {
      const head = conversation(3, 2000);
      const tail = conversation(turns, 100, [turns - 1]).slice(3);
      return request([...head, ...tail]);
    };
    const within = new AnthropicPromptCache();
    within.serve(request(conversation(3, 2000, [2])));
    expect(within.serve(grown(23)).cachedTokens).toBe(tokensUpTo(grown(23), 2));
    const beyond = new AnthropicPromptCache();
    beyond.serve(request(conversation(3, 2000, [2])));
    expect(beyond.serve(grown(24)).cachedTokens).toBe(0);
  });
});

describe('startStrictAnthropicServer prompt caching', () => {
  it('answers more than 4 breakpoints with a 400, like the API', async () => {
    const server = await startStrictAnthropicServer(['never']);
    try {
      const response = await fetch(`${server.baseURL}/v1/messages`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-key': 'k',
          'anthropic-version': '2023-06-01',
        },
        body: JSON.stringify({ ...request(conversation(5, 10, [0, 1, 2, 3, 4])), stream: true }),
      });
      expect(response.status).toBe(400);
      expect(await response.text()).toMatch(/maximum of 4 blocks with cache_control/);
      expect(server.requests[0]!.cache).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it('reports cache_read_input_tokens and cache_creation_input_tokens, input_tokens the rest', async () => {
    const server = await startStrictAnthropicServer(['one', 'two']);
    try {
      const body = { ...request(conversation(1, 5000, [0])), stream: true };
      const usages: JsonObject[] = [];
      for (let i = 0; i < 2; i++) {
        const response = await fetch(`${server.baseURL}/v1/messages`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-api-key': 'k',
            'anthropic-version': '2023-06-01',
          },
          body: JSON.stringify(body),
        });
        const start = (await response.text())
          .split('\n')
          .find((l) => l.startsWith('data: ') && l.includes('message_start'))!;
        usages.push(
          ((JSON.parse(start.slice(6)) as JsonObject)['message'] as JsonObject)[
            'usage'
          ] as JsonObject,
        );
      }
      const total = tokensUpTo(body, 0);
      expect(usages[0]).toMatchObject({
        input_tokens: 0,
        cache_creation_input_tokens: total,
        cache_read_input_tokens: 0,
      });
      expect(usages[1]).toMatchObject({
        input_tokens: 0,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: total,
      });
      expect(server.requests.map((r) => r.cache?.cachedTokens)).toEqual([0, total]);
    } finally {
      await server.close();
    }
  });
});
