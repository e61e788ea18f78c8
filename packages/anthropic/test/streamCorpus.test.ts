import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { AnthropicChatModel } from '@rxagent/anthropic';
import { type ChatChunk, ChatResponseAccumulator, ModelError } from '@rxagent/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const dir = new URL('./fixtures/streams/', import.meta.url);
const expected = JSON.parse(readFileSync(new URL('expected.json', dir), 'utf8')) as Record<
  string,
  { error?: string; retryable?: boolean; chunksBeforeError?: number } & Record<string, unknown>
>;
const files = readdirSync(dir).filter((name) => name.endsWith('.sse'));

/** A small seeded PRNG (mulberry32): the same file always splits the same way. */
function seeded(text: string): () => number {
  let state = 0;
  for (const char of text) state = (Math.imul(state, 31) + char.charCodeAt(0)) | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Writes `body` in writes of 1 to 16 bytes, each after the last was flushed, also cutting inside characters. */
function trickle(res: ServerResponse, body: Buffer, random: () => number): void {
  const cuts = new Set<number>();
  for (let at = 0; at < body.length; ) {
    at = Math.min(body.length, at + 1 + Math.floor(random() * 16));
    cuts.add(at);
  }
  body.forEach((byte, at) => {
    if ((byte & 0xc0) === 0xc0) cuts.add(at + 1);
  });
  const sorted = [...cuts].sort((a, b) => a - b);
  let from = 0;
  const next = (i: number): void => {
    const to = sorted[i];
    if (to === undefined) {
      res.end();
      return;
    }
    const part = body.subarray(from, to);
    from = to;
    res.write(part, () => next(i + 1));
  };
  next(0);
}

let server: Server;
let baseURL = '';
let serving = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.once('end', () => {
      const body = readFileSync(new URL(serving, dir));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      trickle(res, body, seeded(serving));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  baseURL = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('AnthropicChatModel on the Messages API stream corpus, in split writes', () => {
  it.each(files)('reads %s', async (file) => {
    serving = file;
    const model = new AnthropicChatModel({
      model: 'claude-test',
      baseURL,
      apiKey: 'k',
      maxRetries: 0,
    });
    const accumulator = new ChatResponseAccumulator();
    const chunks: ChatChunk[] = [];
    const error = await new Promise<unknown>((resolve) => {
      model.stream({ messages: [{ role: 'user', content: 'q' }] }).subscribe({
        next: (chunk) => {
          chunks.push(chunk);
          accumulator.add(chunk);
        },
        error: resolve,
        complete: () => resolve(undefined),
      });
    });
    const want = expected[file]!;
    if (want.error !== undefined) {
      expect(error).toBeInstanceOf(ModelError);
      expect((error as ModelError).message).toContain(want.error);
      expect((error as ModelError).retryable).toBe(want.retryable);
      expect(chunks.filter((c) => c.text || c.thinking || c.toolCalls)).toHaveLength(
        want.chunksBeforeError!,
      );
      return;
    }
    expect(error).toBeUndefined();
    expect(accumulator.response()).toEqual(want);
  });
});
