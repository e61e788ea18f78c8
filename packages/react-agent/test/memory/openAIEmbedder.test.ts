import { InMemoryStore } from '@rxagent/core';
import { type StrictOpenAIServer, startStrictOpenAIServer } from '@rxagent/core/testing';
import { OpenAIEmbedder } from '@rxagent/react-agent';
import { afterEach, describe, expect, it } from 'vitest';

let server: StrictOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

async function post(body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${server!.baseURL}/embeddings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('OpenAIEmbedder on the strict server', () => {
  it('embeds through /v1/embeddings deterministically, honouring dimensions (the SDK asks for base64)', async () => {
    server = await startStrictOpenAIServer();
    const embedder = new OpenAIEmbedder({
      model: 'text-embedding-3-small',
      baseURL: server.baseURL,
      apiKey: 'k',
      dimensions: 64,
    });
    const [a, b, c] = await embedder.embed([
      'Alice likes green tea',
      'Alice likes green tea',
      'quarterly tax report',
    ]);
    expect(a).toHaveLength(64);
    expect(embedder.dimensions).toBe(64);
    expect(a).toEqual(b);
    expect(cosine(a!, a!)).toBeCloseTo(1, 5);
    expect(cosine(a!, c!)).toBeLessThan(0.5);
    const sent = JSON.parse(server.embeddingRequests[0]!) as Record<string, unknown>;
    expect(sent).toMatchObject({
      model: 'text-embedding-3-small',
      dimensions: 64,
      encoding_format: 'base64',
    });
    expect(server.rejectedEmbeddings).toEqual([]);
  });

  it("learns the model's length without dimensions, and gives vectors in input order", async () => {
    server = await startStrictOpenAIServer();
    const embedder = new OpenAIEmbedder({
      model: 'text-embedding-3-small',
      baseURL: server.baseURL,
    });
    expect(embedder.dimensions).toBe(0);
    const texts = ['one', 'two', 'three'];
    const vectors = await embedder.embed(texts);
    expect(embedder.dimensions).toBe(1536);
    const [again] = await embedder.embed(['three']);
    expect(vectors[2]).toEqual(again);
  });

  it('answers float and base64 the same vector, and rejects malformed requests with 400', async () => {
    server = await startStrictOpenAIServer();
    const float = await post({ model: 'm', input: 'hello world', dimensions: 8 });
    const base64 = await post({
      model: 'm',
      input: ['hello world'],
      dimensions: 8,
      encoding_format: 'base64',
    });
    expect(float.status).toBe(200);
    const vector = (float.json['data'] as { embedding: number[] }[])[0]!.embedding;
    const bytes = Buffer.from(
      (base64.json['data'] as { embedding: string }[])[0]!.embedding,
      'base64',
    );
    const decoded = Array.from({ length: 8 }, (_, i) => bytes.readFloatLE(i * 4));
    expect(decoded).toEqual(vector);
    expect(float.json['usage']).toMatchObject({ prompt_tokens: 3, total_tokens: 3 });
    for (const bad of [
      { input: 'x' },
      { model: 'm', input: '' },
      { model: 'm', input: [] },
      { model: 'm', input: ['ok', 3] },
      { model: 'm', input: 'x', dimensions: 0 },
      { model: 'm', input: 'x', encoding_format: 'hex' },
      { model: 'm', input: 'x', temperature: 1 },
    ]) {
      const answer = await post(bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect((answer.json['error'] as Record<string, unknown>)['type']).toBe(
        'invalid_request_error',
      );
    }
    expect(server.rejectedEmbeddings).toHaveLength(7);
  });

  it('rejects with a ModelError naming the model when the server refuses', async () => {
    server = await startStrictOpenAIServer();
    const embedder = new OpenAIEmbedder({
      model: 'm',
      baseURL: server.baseURL,
      dimensions: 99_999,
      maxRetries: 0,
    });
    await expect(embedder.embed(['x'])).rejects.toThrow(
      /400[\s\S]*dimensions|dimensions[\s\S]*400/,
    );
    expect(() => new OpenAIEmbedder({ model: '' })).toThrow(/model must be a non-empty string/);
    expect(
      () => new OpenAIEmbedder({ model: 'm', baseURL: server!.baseURL, dimension: 3 } as never),
    ).toThrow(/dimension/);
  });

  it('serves as a store embedder (InMemoryStore ranks by meaning too)', async () => {
    server = await startStrictOpenAIServer();
    const embedder = new OpenAIEmbedder({
      model: 'text-embedding-3-small',
      baseURL: server.baseURL,
      dimensions: 256,
    });
    const store = new InMemoryStore({ embedder });
    await store.put(['u'], 'a', { text: 'Alice is allergic to peanuts' });
    await store.put(['u'], 'b', { text: 'The meeting moved to Thursday' });
    const hits = await store.search(['u'], { query: 'peanut allergy alice' });
    expect(hits[0]?.key).toBe('a');
  });
});
