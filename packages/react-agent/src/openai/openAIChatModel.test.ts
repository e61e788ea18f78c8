import {
  assistantMsg,
  type ChatChunk,
  type ChatMessage,
  type ChatRequest,
  ChatResponseAccumulator,
  createMsg,
  formatMessages,
  InvalidArgumentError,
  isAbortError,
  ModelError,
  userMsg,
} from '@rxagent/core';
import { type StrictOpenAIServer, startStrictOpenAIServer } from '@rxagent/core/testing';
import OpenAI from 'openai';
import { firstValueFrom, lastValueFrom, type Observable, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serve } from '../../test/httpServer.js';
import { OpenAIChatModel, type OpenAIChatModelOptions } from './openAIChatModel.js';

let server: StrictOpenAIServer;

beforeEach(() => {
  vi.stubEnv('OPENAI_API_KEY', '');
  vi.stubEnv('OPENAI_BASE_URL', '');
  vi.stubEnv('OPENAI_MODEL', '');
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
});

async function start(...script: Parameters<StrictOpenAIServer['enqueue']>) {
  server = await startStrictOpenAIServer({ script });
  return server;
}

function model(options: OpenAIChatModelOptions = {}) {
  return new OpenAIChatModel({ model: 'test-model', baseURL: server.baseURL, ...options });
}

const request = (text = 'hi', extra: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [{ role: 'user', content: text }],
  ...extra,
});

const weather = {
  type: 'function' as const,
  function: {
    name: 'weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
};

async function collect(chunks: Observable<ChatChunk>) {
  const list = await lastValueFrom(chunks.pipe(toArray()));
  const accumulator = new ChatResponseAccumulator();
  for (const chunk of list) accumulator.add(chunk);
  return { list, response: accumulator.response() };
}

function failure(chunks: Observable<ChatChunk>): Promise<{ error: unknown; values: ChatChunk[] }> {
  const values: ChatChunk[] = [];
  return new Promise((resolve, reject) => {
    chunks.subscribe({
      next: (chunk) => values.push(chunk),
      error: (error: unknown) => resolve({ error, values }),
      complete: () => reject(new Error('expected an error, the stream completed')),
    });
  });
}

describe('OpenAIChatModel construction', () => {
  it('errors clearly, naming OPENAI_MODEL, when no model name is given', () => {
    expect(() => new OpenAIChatModel({ baseURL: 'http://127.0.0.1:1/v1' })).toThrow(
      InvalidArgumentError,
    );
    expect(() => new OpenAIChatModel({ baseURL: 'http://127.0.0.1:1/v1' })).toThrow(/OPENAI_MODEL/);
  });

  it('reads the model name from OPENAI_MODEL', () => {
    vi.stubEnv('OPENAI_MODEL', 'env-model');
    expect(new OpenAIChatModel({ baseURL: 'http://127.0.0.1:1/v1' }).modelName).toBe('env-model');
  });

  it('requires an API key for OpenAI itself, naming OPENAI_API_KEY', () => {
    expect(() => new OpenAIChatModel({ model: 'gpt-x' })).toThrow(/OPENAI_API_KEY/);
  });

  it('rejects a baseURL without an http(s) scheme with a TypeError suggesting http://', () => {
    const make = (baseURL: string) => () => new OpenAIChatModel({ model: 'm', baseURL });
    expect(make('localhost:8000/v1')).toThrow(TypeError);
    expect(make('localhost:8000/v1')).toThrow(
      'OpenAIChatModel: baseURL "localhost:8000/v1" is not an http:// or https:// URL; did you mean "http://localhost:8000/v1"?',
    );
    expect(make('127.0.0.1:8000/v1')).toThrow(/did you mean "http:\/\/127\.0\.0\.1:8000\/v1"/);
    expect(make('ftp://models.local/v1')).toThrow(/"ftp:\/\/models\.local\/v1" is not an http/);
    expect(make('http://localhost:8000/v1')).not.toThrow();
    expect(make('https://api.example.com/v1')).not.toThrow();
  });

  it('rejects an OPENAI_BASE_URL without a scheme, naming the variable', () => {
    vi.stubEnv('OPENAI_BASE_URL', 'localhost:11434/v1');
    expect(() => new OpenAIChatModel({ model: 'm' })).toThrow(
      /OPENAI_BASE_URL "localhost:11434\/v1" is not an http:\/\/ or https:\/\/ URL/,
    );
  });

  it('rejects a non-positive timeout and a fractional retry count', () => {
    const base = { model: 'm', baseURL: 'http://127.0.0.1:1/v1' };
    expect(() => new OpenAIChatModel({ ...base, timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => new OpenAIChatModel({ ...base, maxRetries: 1.5 })).toThrow(/maxRetries/);
  });

  it('rejects a non-positive requestTimeoutMs and a negative maxRetryAfterMs', () => {
    const base = { model: 'm', baseURL: 'http://127.0.0.1:1/v1' };
    expect(() => new OpenAIChatModel({ ...base, requestTimeoutMs: 0 })).toThrow(/requestTimeoutMs/);
    expect(() => new OpenAIChatModel({ ...base, maxRetryAfterMs: -1 })).toThrow(/maxRetryAfterMs/);
  });
});

describe('OpenAIChatModel.stream', () => {
  it('streams text chunks with usage, and sends what the strict server accepts', async () => {
    await start('Hello brave new world');
    const { list, response } = await collect(model().stream(request()));
    expect(list.length).toBeGreaterThan(2);
    expect(response.text).toBe('Hello brave new world');
    expect(response.finishReason).toBe('stop');
    expect(response.usage).toEqual({
      inputTokens: expect.any(Number),
      outputTokens: expect.any(Number),
      totalTokens: expect.any(Number),
      cachedInputTokens: 0,
    });
    expect(response.usage!.totalTokens).toBe(
      response.usage!.inputTokens + response.usage!.outputTokens,
    );
    expect(server.rejected).toEqual([]);
    expect(server.requests[0]!.body).toMatchObject({
      model: 'test-model',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('sends promptCacheKey as prompt_cache_key, and rejects an empty one', async () => {
    await start('ok');
    await collect(model({ promptCacheKey: 'tenant-7' }).stream(request()));
    expect(server.requests[0]!.body['prompt_cache_key']).toBe('tenant-7');
    expect(() => model({ promptCacheKey: '' })).toThrow(
      /promptCacheKey must be a non-empty string/u,
    );
  });

  it('sends one request and emits one chunk with everything when not streaming', async () => {
    await start({
      text: 'All at once',
      thinking: 'Quick.',
      usage: { inputTokens: 3, outputTokens: 2 },
    });
    const { list } = await collect(model({ stream: false }).stream(request()));
    expect(list).toEqual([
      {
        text: 'All at once',
        thinking: 'Quick.',
        reasoningField: 'reasoning_content',
        finishReason: 'stop',
        usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5, cachedInputTokens: 0 },
      },
    ]);
    expect(server.rejected).toEqual([]);
    expect(server.requests[0]!.body).not.toHaveProperty('stream_options');
  });

  it('assembles streamed tool-call deltas into complete calls', async () => {
    await start({
      toolCalls: [
        { name: 'weather', arguments: { city: 'Oslo, Norway' } },
        { name: 'weather', arguments: { city: 'Bergen' } },
      ],
    });
    const chunks = model().stream(request('weather?', { tools: [weather], toolChoice: 'auto' }));
    const { list, response } = await collect(chunks);
    expect(list.filter((c) => c.toolCalls).length).toBeGreaterThan(2);
    expect(response.toolCalls).toEqual([
      { id: expect.any(String), name: 'weather', arguments: '{"city":"Oslo, Norway"}' },
      { id: expect.any(String), name: 'weather', arguments: '{"city":"Bergen"}' },
    ]);
    expect(response.toolCalls[0]!.id).not.toBe(response.toolCalls[1]!.id);
    expect(response.finishReason).toBe('tool_calls');
    expect(server.rejected).toEqual([]);
    expect(server.requests[0]!.body).toMatchObject({ tools: [weather], tool_choice: 'auto' });
  });

  it('maps reasoning_content to thinking', async () => {
    await start({ thinking: 'Let me think about it', text: 'Yes.' });
    const { response } = await collect(model().stream(request()));
    expect(response.thinking).toBe('Let me think about it');
    expect(response.text).toBe('Yes.');
    expect(server.rejected).toEqual([]);
  });

  it('sends a formatted multi-tool conversation the strict server accepts', async () => {
    await start('Oslo is sunny.');
    const msgs = [
      userMsg('Weather in Oslo and Bergen?'),
      assistantMsg([
        { type: 'tool_use', id: 'call_a', name: 'weather', input: { city: 'Oslo' } },
        { type: 'tool_use', id: 'call_b', name: 'weather', input: { city: 'Bergen' } },
      ]),
      createMsg({
        name: 'assistant',
        role: 'tool',
        content: [
          { type: 'tool_result', id: 'call_a', name: 'weather', output: 'Sunny' },
          { type: 'tool_result', id: 'call_b', name: 'weather', output: 'Rain', isError: false },
        ],
      }),
      userMsg('[Judge feedback] Mention both cities.', { name: 'system' }),
    ];
    const messages = formatMessages(msgs, {
      systemPrompt: 'You are helpful.',
      selfName: 'assistant',
    });
    await collect(model().stream({ messages, tools: [weather] }));
    expect(server.rejected).toEqual([]);
    expect(server.requests[0]!.body['messages']).toEqual(messages);
  });

  it('sends sampling options, extra body fields and max_tokens to a non-OpenAI server', async () => {
    await start('ok');
    const chat = model({ temperature: 0.2, maxTokens: 64, extraBody: { top_k: 20 } });
    await collect(chat.stream(request('hi', { options: { topP: 0.5, seed: 1 } })));
    expect(server.rejected).toEqual([]);
    expect(server.requests[0]!.body).toMatchObject({
      temperature: 0.2,
      max_tokens: 64,
      top_p: 0.5,
      seed: 1,
      top_k: 20,
    });
  });

  it('sends a placeholder API key when only a baseURL is configured, and custom headers', async () => {
    await start('ok');
    await collect(model({ defaultHeaders: { 'x-team': 'blue' } }).stream(request()));
    expect(server.requests[0]!.headers.authorization).toBe('Bearer not-needed');
    expect(server.requests[0]!.headers['x-team']).toBe('blue');
  });

  it('uses the fetch it is given', async () => {
    await start('ok');
    const spy = vi.fn((input: string | URL | Request, init?: RequestInit) => fetch(input, init));
    await collect(model({ fetch: spy }).stream(request()));
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it('is cold: nothing is sent until subscription, and each subscription sends one request', async () => {
    await start('one', 'two');
    const chunks = model().stream(request());
    model().stream(request());
    expect((await collect(chunks)).response.text).toBe('one');
    expect((await collect(chunks)).response.text).toBe('two');
    expect(server.requests).toHaveLength(2);
  });

  it('retries a 429 after the retry-after the server sent, then succeeds', async () => {
    await start({ error: { status: 429, headers: { 'retry-after': '0' } } }, 'Recovered');
    // A backoff of a minute would time the test out: only retry-after can make it pass.
    const { response } = await collect(model({ retryBaseDelayMs: 60_000 }).stream(request()));
    expect(response.text).toBe('Recovered');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]!.status).toBe(429);
    expect(server.rejected).toEqual([]);
  });

  it('retries a 500 with backoff, then succeeds', async () => {
    await start({ error: { status: 500 } }, 'Recovered');
    const { response } = await collect(model({ retryBaseDelayMs: 1 }).stream(request()));
    expect(response.text).toBe('Recovered');
    expect(server.requests.map((r) => r.status)).toEqual([500, 200]);
    expect(server.rejected).toEqual([]);
  });

  it('retries with the very body the first attempt sent, whatever the caller changes meanwhile', async () => {
    const bodies: string[] = [];
    let failFirst: () => void = () => {};
    const firstArrived = new Promise<void>((resolve) => {
      failFirst = resolve;
    });
    let answerFirst: () => void = () => {};
    const http = await serve((_req, res, body) => {
      bodies.push(body);
      if (bodies.length === 1) {
        // Answered (a 500, retried) only once the test has changed its request.
        answerFirst = () => {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'busy' } }));
        };
        failFirst();
        return;
      }
      const base = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm' };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`,
      );
    });
    const chat = new OpenAIChatModel({
      model: 'm',
      baseURL: `${http.url}/v1`,
      apiKey: 'k',
      retryBaseDelayMs: 1,
    });
    const asked = request('first', { tools: [weather], toolChoice: 'auto' });
    const replies = collect(chat.stream(asked));
    await firstArrived;
    // The caller's objects are its own: a change after the first attempt is not resent.
    asked.messages.push({ role: 'user', content: 'added later' });
    (asked.messages[0] as { content: string }).content = 'changed';
    answerFirst();
    const { response } = await replies;
    expect(response.text).toBe('ok');
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toBe(bodies[0]);
    expect(JSON.parse(bodies[0]!).messages).toEqual([{ role: 'user', content: 'first' }]);
  });

  it('retries a body of frozen messages with the same bytes, whatever the caller adds meanwhile', async () => {
    const bodies: string[] = [];
    let answerFirst: () => void = () => {};
    const http = await serve((_req, res, body) => {
      bodies.push(body);
      if (bodies.length === 1) {
        // Answered (a 500, retried) only once the test has added to its request.
        answerFirst = () => {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'busy' } }));
        };
        return;
      }
      const base = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm' };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`,
      );
    });
    const chat = new OpenAIChatModel({
      model: 'm',
      baseURL: `${http.url}/v1`,
      apiKey: 'k',
      retryBaseDelayMs: 1,
    });
    // The default formatter's messages of a long history are frozen, and kept as they are
    // for a retry.
    const history = [
      ...Array.from({ length: 12 }, (_, i) => userMsg(`earlier ${i}`)),
      userMsg('first'),
      assistantMsg([
        { type: 'thinking', thinking: 'hm', signature: 'sig' },
        { type: 'tool_use', id: 'c1', name: 'weather', input: { city: 'Paris' } },
      ]),
      createMsg({
        name: 'assistant',
        role: 'tool',
        content: [{ type: 'tool_result', id: 'c1', name: 'weather', output: 'sunny' }],
      }),
    ];
    const messages = formatMessages(history, { systemPrompt: 'Sys.', model: 'm' });
    expect(messages.every((message) => Object.isFrozen(message))).toBe(true);
    const asked = request('', { messages, tools: [Object.freeze(weather)] });
    const replies = collect(chat.stream(asked));
    // Added once the first attempt has its body: not part of the retry.
    await vi.waitFor(() => expect(bodies).toHaveLength(1));
    messages.push(Object.freeze({ role: 'user', content: 'added later' }) as ChatMessage);
    answerFirst();
    const { response } = await replies;
    expect(response.text).toBe('ok');
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toBe(bodies[0]);
    const sent = JSON.parse(bodies[0]!).messages as ChatMessage[];
    expect(sent.slice(-4).map((message) => message.role)).toEqual([
      'user',
      'user',
      'assistant',
      'tool',
    ]);
    expect(sent.at(-2)).not.toHaveProperty('thinking');
  });

  it('retries a request the SDK sends with the same body', async () => {
    await start({ error: { status: 500 } }, 'Recovered');
    const chat = model({ retryBaseDelayMs: 1, stream: false });
    const { response } = await collect(chat.stream(request('hi', { tools: [weather] })));
    expect(response.text).toBe('Recovered');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body).toEqual(server.requests[0]!.body);
    expect(server.requests[0]!.body['tools']).toHaveLength(1);
  });

  it('retries a connection reset that comes before any chunk', async () => {
    await start({ error: {} }, 'Recovered');
    const { response } = await collect(model({ retryBaseDelayMs: 1 }).stream(request()));
    expect(response.text).toBe('Recovered');
    expect(server.requests).toHaveLength(2);
  });

  it('gives up after maxRetries with a retryable ModelError', async () => {
    await start(
      ...Array.from({ length: 3 }, () => ({ error: { status: 503, message: 'Overloaded' } })),
    );
    const { error } = await failure(
      model({ retryBaseDelayMs: 1, maxRetries: 2 }).stream(request()),
    );
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).status).toBe(503);
    expect((error as ModelError).retryable).toBe(true);
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 400 and names the status and the server message', async () => {
    await start(
      { error: { status: 400, message: 'Invalid schema for function weather' } },
      'unused',
    );
    const { error } = await failure(model({ retryBaseDelayMs: 1 }).stream(request()));
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).status).toBe(400);
    expect((error as ModelError).retryable).toBe(false);
    expect((error as ModelError).message).toContain(
      'HTTP 400: Invalid schema for function weather',
    );
    expect((error as ModelError).cause).toBeInstanceOf(Error);
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry a connection reset after the first chunk arrived', async () => {
    await start({ text: 'Hello brave new world', error: { afterChunks: 2 } }, 'unused');
    const { error, values } = await failure(model({ retryBaseDelayMs: 1 }).stream(request()));
    expect(values.map((v) => v.text).join('')).toBe('Hello brave');
    expect(error).toBeInstanceOf(ModelError);
    expect(isAbortError(error)).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('closes the HTTP request when unsubscribed mid-stream', async () => {
    await start({ text: 'one two three', chunkDelayMs: 60_000 });
    const first = await firstValueFrom(model().stream(request()));
    expect(first.text).toBe('one');
    await server.requests[0]!.done;
    expect(server.requests[0]!.aborted).toBe(true);
  });

  it('errors with an AbortError within milliseconds when request.signal aborts mid-stream', async () => {
    await start({ text: 'one two three', chunkDelayMs: 60_000 });
    const controller = new AbortController();
    let abortedAt = 0;
    const values: ChatChunk[] = [];
    const error = await new Promise<unknown>((resolve, reject) => {
      model()
        .stream(request('hi', { signal: controller.signal }))
        .subscribe({
          next: (chunk) => {
            values.push(chunk);
            abortedAt = performance.now();
            controller.abort();
          },
          error: resolve,
          complete: () => reject(new Error('completed')),
        });
    });
    expect(performance.now() - abortedAt).toBeLessThan(200);
    expect(isAbortError(error)).toBe(true);
    expect(values).toHaveLength(1);
    await server.requests[0]!.done;
    expect(server.requests[0]!.aborted).toBe(true);
  });

  it('sends nothing when request.signal is already aborted', async () => {
    await start('unused');
    const { error } = await failure(model().stream(request('hi', { signal: AbortSignal.abort() })));
    expect(isAbortError(error)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it('times out a stream that stalls between chunks, with a retryable ModelError', async () => {
    await start({ text: 'one two', chunkDelayMs: 60_000 });
    const chat = model({ timeoutMs: 100, maxRetries: 0 });
    const { error, values } = await failure(chat.stream(request()));
    expect(values.map((v) => v.text).join('')).toBe('one');
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).retryable).toBe(true);
    expect((error as ModelError).message).toContain('100 ms');
    await server.requests[0]!.done;
    expect(server.requests[0]!.aborted).toBe(true);
  });

  it.each([
    ['its own client', () => ({})],
    [
      'a client built with a longer timeout',
      () => ({
        client: new OpenAI({
          apiKey: 'k',
          baseURL: server.baseURL,
          maxRetries: 0,
          timeout: 600_000,
        }),
      }),
    ],
  ])('bounds a silent reply with timeoutMs, on %s', async (_, options) => {
    await start({ text: 'slow', delayMs: 60_000 });
    const chat = model({ ...options(), timeoutMs: 100, maxRetries: 0 });
    const started = performance.now();
    const { error } = await failure(chat.stream(request()));
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).retryable).toBe(true);
    expect((error as ModelError).message).toMatch(/sent nothing for 100 ms/);
    await server.requests[0]!.done;
    expect(server.requests[0]!.aborted).toBe(true);
  });

  it('reports a server that refuses the connection, naming it, as retryable', async () => {
    await start('unused');
    const baseURL = server.baseURL;
    await server.close();
    const chat = new OpenAIChatModel({ model: 'm', baseURL, maxRetries: 0 });
    const { error } = await failure(chat.stream(request()));
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toMatch(/Could not reach model "m".*ECONNREFUSED/);
    expect((error as ModelError).retryable).toBe(true);
  });

  it('leaves no timer behind after a streamed reply, a retried failure or an unsubscribe', async () => {
    await start('one two three', { error: { status: 503, message: 'busy' } }, 'after a retry', {
      text: 'slow',
      delayMs: 60_000,
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await collect(model().stream(request()));
      // The reply completes at [DONE]; its watchdog goes when the body's end arrives.
      await vi.waitFor(() => expect(vi.getTimerCount()).toBe(0), { interval: 5 });
      const retried = model({ retryBaseDelayMs: 0 }).stream(request());
      expect((await collect(retried)).response.text).toBe('after a retry');
      await vi.waitFor(() => expect(vi.getTimerCount()).toBe(0), { interval: 5 });
      const subscription = model().stream(request()).subscribe();
      await vi.waitFor(() => expect(server.requests).toHaveLength(4), { interval: 5 });
      subscription.unsubscribe();
      await server.requests[3]!.done;
      await vi.waitFor(() => expect(vi.getTimerCount()).toBe(0), { interval: 5 });
      expect(server.requests[3]!.aborted).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('completes a finished reply at [DONE], before the body ends, and closes a body that never ends after timeoutMs', async () => {
    const chunk = (body: object) => `data: ${JSON.stringify(body)}\n\n`;
    const base = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm' };
    let requestClosed = false;
    const http = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk({ ...base, choices: [{ index: 0, delta: { content: 'done early' } }] }));
      res.write(
        chunk({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) +
          'data: [DONE]\n\n',
      );
      // The body is never ended.
      req.socket.on('close', () => {
        requestClosed = true;
      });
    });
    const chat = new OpenAIChatModel({
      model: 'm',
      baseURL: `${http.url}/v1`,
      apiKey: 'k',
      timeoutMs: 300,
      maxRetries: 0,
    });
    const { response } = await collect(chat.stream(request()));
    expect(response.text).toBe('done early');
    expect(response.finishReason).toBe('stop');
    expect(requestClosed).toBe(false);
    await vi.waitFor(() => expect(requestClosed).toBe(true), { timeout: 10_000, interval: 20 });
  });

  it('still reports a stream cut after [DONE] without a finish reason', async () => {
    const http = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'half' } }] })}\n\ndata: [DONE]\n\n`,
      );
    });
    const chat = new OpenAIChatModel({
      model: 'm',
      baseURL: `${http.url}/v1`,
      apiKey: 'k',
      maxRetries: 0,
    });
    const { error } = await failure(chat.stream(request()));
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toMatch(/ended before the reply was complete/);
  });

  it('retries a request that timed out before its first chunk', async () => {
    await start({ text: 'slow', delayMs: 60_000 }, 'fast');
    const chat = model({ timeoutMs: 100, retryBaseDelayMs: 1, stream: false });
    const { response } = await collect(chat.stream(request()));
    expect(response.text).toBe('fast');
    expect(server.requests).toHaveLength(2);
  });
});
