import OpenAI from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatRequest } from '../model/chatModel.js';
import { type StrictOpenAIServer, startStrictOpenAIServer } from './strictOpenAIServer.js';

let server: StrictOpenAIServer;

afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
});

const client = (maxRetries = 0) =>
  new OpenAI({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries });

const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather for a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
};

const hello: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];

interface ErrorJson {
  error: { message: string; type: string; param: null; code: string | null };
}

const errorJson = async (response: Response) => (await response.json()) as ErrorJson;

function post(body: unknown, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

/** Resolves when the script function is reached, i.e. the server is answering the request. */
function arrival(turn: { text: string; delayMs?: number; chunkDelayMs?: number }) {
  let reached!: () => void;
  const arrived = new Promise<void>((resolve) => {
    reached = resolve;
  });
  return {
    arrived,
    reply: () => {
      reached();
      return turn;
    },
  };
}

describe('startStrictOpenAIServer', () => {
  it('answers a non-streamed request with a chat.completion the openai SDK parses', async () => {
    server = await startStrictOpenAIServer({
      script: [
        {
          thinking: 'Need the weather.',
          toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
          usage: { inputTokens: 12, outputTokens: 5 },
        },
      ],
    });
    const completion = await client().chat.completions.create({
      model: 'gpt-test',
      messages: hello,
      tools: [weatherTool],
    });
    expect(completion).toMatchObject({
      object: 'chat.completion',
      model: 'gpt-test',
      usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
    });
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message).toMatchObject({
      role: 'assistant',
      content: null,
      reasoning_content: 'Need the weather.',
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
        },
      ],
    });
    expect(server.requests[0]).toMatchObject({ stream: false, status: 200, aborted: false });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer test-key');
  });

  it('streams chat.completion.chunk events the openai SDK reads, with reasoning_content and a usage chunk', async () => {
    server = await startStrictOpenAIServer({
      script: [
        {
          thinking: 'Hmm, Paris.',
          text: 'Let me check.',
          toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
        },
      ],
    });
    const stream = await client().chat.completions.create({
      model: 'gpt-test',
      messages: hello,
      tools: [weatherTool],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const deltas = chunks.flatMap((c) => c.choices.map((choice) => choice.delta));
    const reasoning = deltas
      .map((d) => (d as { reasoning_content?: string }).reasoning_content ?? '')
      .join('');
    expect(reasoning).toBe('Hmm, Paris.');
    expect(deltas.map((d) => d.content ?? '').join('')).toBe('Let me check.');
    expect(deltas[0]).toEqual({ role: 'assistant', content: '', refusal: null });
    const toolDeltas = deltas.flatMap((d) => d.tool_calls ?? []);
    expect(toolDeltas[0]).toEqual({
      index: 0,
      id: 'call_1',
      type: 'function',
      function: { name: 'get_weather', arguments: '' },
    });
    expect(toolDeltas.length).toBeGreaterThanOrEqual(3);
    expect(toolDeltas.map((d) => d.function?.arguments ?? '').join('')).toBe('{"city":"Paris"}');
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('tool_calls');
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage?.total_tokens).toBe(
      (last.usage?.prompt_tokens ?? 0) + (last.usage?.completion_tokens ?? 0),
    );
    expect(
      chunks.every((c) => c.object === 'chat.completion.chunk' && c.id === chunks[0]?.id),
    ).toBe(true);
  });

  it('streams tool calls the SDK stream helper assembles into a final completion', async () => {
    server = await startStrictOpenAIServer({
      script: [
        {
          toolCalls: [
            { name: 'get_weather', arguments: { city: 'Paris' } },
            { id: 'call_rome', name: 'get_weather', arguments: { city: 'Rome' } },
          ],
        },
      ],
    });
    const runner = client().chat.completions.stream({
      model: 'gpt-test',
      messages: hello,
      tools: [weatherTool],
    });
    const final = await runner.finalChatCompletion();
    expect(final.choices[0]?.message.tool_calls).toEqual([
      {
        id: 'call_1',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
      },
      {
        id: 'call_rome',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Rome"}' },
      },
    ]);
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('writes SSE as data lines ending with data: [DONE]', async () => {
    server = await startStrictOpenAIServer({ script: ['Hi there'] });
    const response = await post({ model: 'm', messages: hello, stream: true });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = (await response.text()).split('\n\n').filter(Boolean);
    expect(events.every((e) => e.startsWith('data: '))).toBe(true);
    expect(events.at(-1)).toBe('data: [DONE]');
    const parsed = events.slice(0, -1).map((e) => JSON.parse(e.slice(6)));
    expect(parsed.map((c) => c.choices[0].delta.content ?? '').join('')).toBe('Hi there');
    expect(parsed.some((c) => 'usage' in c)).toBe(false);
  });

  it('accepts its own replies played back as history, across a multi-step tool conversation', async () => {
    server = await startStrictOpenAIServer({
      script: [{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, 'Sunny.'],
    });
    const first = await client().chat.completions.create({
      model: 'm',
      messages: hello,
      tools: [weatherTool],
    });
    const assistant = first.choices[0]!.message;
    const messages: ChatCompletionMessageParam[] = [
      ...hello,
      assistant,
      { role: 'tool', tool_call_id: assistant.tool_calls![0]!.id, content: '21°C, sunny' },
    ];
    const second = await client().chat.completions.create({
      model: 'm',
      messages,
      tools: [weatherTool],
    });
    expect(second.choices[0]?.message.content).toBe('Sunny.');
    expect(server.rejected).toHaveLength(0);
  });

  it('gives script functions the request as a ChatRequest and their position', async () => {
    const reply = vi.fn((_request: ChatRequest, index: number) => `reply ${index}`);
    server = await startStrictOpenAIServer({ script: [reply], model: 'served-model' });
    const completion = await client().chat.completions.create({
      model: 'gpt-test',
      messages: hello,
      tools: [weatherTool],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      temperature: 0.5,
    });
    expect(completion.choices[0]?.message.content).toBe('reply 0');
    expect(completion.model).toBe('served-model');
    expect(reply.mock.calls[0]?.[0]).toMatchObject({
      messages: hello,
      tools: [weatherTool],
      toolChoice: { name: 'get_weather' },
      options: { temperature: 0.5 },
    });
  });

  it('answers an invalid request 400 with an OpenAI error body and records the rejection', async () => {
    server = await startStrictOpenAIServer({ script: ['unused'] });
    const messages = [...hello, { role: 'tool', tool_call_id: 'call_1', content: 'x' }];
    const response = await post({ model: 'm', messages });
    expect(response.status).toBe(400);
    const reason =
      'messages[1]: tool message (tool_call_id call_1) does not follow an assistant message with tool_calls; a tool result must come right after the assistant message that made the call';
    expect(await response.json()).toEqual({
      error: { message: reason, type: 'invalid_request_error', param: null, code: null },
    });
    expect(server.rejected).toHaveLength(1);
    expect(server.rejected[0]).toMatchObject({
      status: 400,
      rejection: reason,
      body: { model: 'm' },
    });
    const sdkError = await client()
      .chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'x', name: 'a b' }],
      })
      .catch((e: unknown) => e);
    expect(sdkError).toBeInstanceOf(OpenAI.BadRequestError);
    expect((sdkError as InstanceType<typeof OpenAI.BadRequestError>).message).toContain(
      'messages[0].name',
    );
    expect(server.requests).toHaveLength(2);
  });

  it('answers a body that is not JSON 400, and unknown routes 404', async () => {
    server = await startStrictOpenAIServer();
    const bad = await post('{"model":');
    expect(bad.status).toBe(400);
    expect((await errorJson(bad)).error.message).toContain('could not parse the JSON body');
    expect(server.rejected[0]?.body).toEqual({});
    const missing = await fetch(`${server.baseURL}/models`);
    expect(missing.status).toBe(404);
    expect((await errorJson(missing)).error).toMatchObject({
      type: 'invalid_request_error',
      code: 'unknown_url',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('fails a scripted 429 with its retry-after header and a rate-limit error body', async () => {
    server = await startStrictOpenAIServer({
      script: [{ error: { status: 429, headers: { 'retry-after': '7' } } }],
    });
    const response = await post({ model: 'm', messages: hello });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect((await errorJson(response)).error).toMatchObject({
      type: 'requests',
      code: 'rate_limit_exceeded',
    });
  });

  it('lets the SDK retry a scripted 429 after retry-after-ms and succeed', async () => {
    server = await startStrictOpenAIServer({
      script: [
        { error: { status: 429, message: 'Slow down', headers: { 'retry-after-ms': '1' } } },
        'Done',
      ],
    });
    const completion = await client(1).chat.completions.create({ model: 'm', messages: hello });
    expect(completion.choices[0]?.message.content).toBe('Done');
    expect(server.requests.map((r) => r.status)).toEqual([429, 200]);
  });

  it('fails a scripted 500 with a server_error body', async () => {
    server = await startStrictOpenAIServer({
      script: [{ error: { status: 500, message: 'Overloaded' } }],
    });
    const error = await client()
      .chat.completions.create({ model: 'm', messages: hello })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(500);
    expect((error as Error).message).toContain('Overloaded');
  });

  it('resets the connection for a scripted error without status', async () => {
    server = await startStrictOpenAIServer({ script: [{ error: {} }] });
    const error = await client()
      .chat.completions.create({ model: 'm', messages: hello })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIConnectionError);
    await server.requests[0]?.done;
    expect(server.requests[0]).toMatchObject({ status: 0, aborted: false });
  });

  it('resets the connection mid-stream after afterChunks chunks', async () => {
    server = await startStrictOpenAIServer({
      script: [{ text: 'one two three four', error: { afterChunks: 2 } }],
    });
    const stream = await client().chat.completions.create({
      model: 'm',
      messages: hello,
      stream: true,
    });
    let text = '';
    const iterate = async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    };
    await expect(iterate()).rejects.toThrow();
    expect(text).toBe('one two');
    expect(server.requests[0]).toMatchObject({ status: 200, aborted: false });
  });

  it('records a client abort during a delay as aborted and clears the delay timer', async () => {
    const setSpy = vi.spyOn(globalThis, 'setTimeout');
    const clearSpy = vi.spyOn(globalThis, 'clearTimeout');
    const { arrived, reply } = arrival({ text: 'late', delayMs: 60_000 });
    server = await startStrictOpenAIServer({ script: [reply] });
    const controller = new AbortController();
    const response = post({ model: 'm', messages: hello }, { signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    await arrived;
    controller.abort();
    expect(await response).toMatchObject({ name: 'AbortError' });
    const recorded = server.requests[0]!;
    await recorded.done;
    expect(recorded.aborted).toBe(true);
    const timerCall = setSpy.mock.calls.findIndex((call) => call[1] === 60_000);
    expect(timerCall).toBeGreaterThanOrEqual(0);
    expect(clearSpy).toHaveBeenCalledWith(setSpy.mock.results[timerCall]?.value);
  });

  it('records a client abort between streamed chunks as aborted', async () => {
    const { arrived, reply } = arrival({ text: 'first second', chunkDelayMs: 60_000 });
    server = await startStrictOpenAIServer({ script: [reply] });
    const controller = new AbortController();
    const stream = await client().chat.completions.create(
      { model: 'm', messages: hello, stream: true },
      { signal: controller.signal },
    );
    await arrived;
    let text = '';
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (text === 'first') controller.abort();
    }
    const recorded = server.requests[0]!;
    await recorded.done;
    expect(text).toBe('first');
    expect(recorded).toMatchObject({ aborted: true, status: 200, stream: true });
  });

  it('takes replies added with enqueue', async () => {
    server = await startStrictOpenAIServer();
    server.enqueue('late addition');
    const completion = await client().chat.completions.create({ model: 'm', messages: hello });
    expect(completion.choices[0]?.message.content).toBe('late addition');
  });

  it('answers 500 saying the script ran out, and tells the SDK not to retry', async () => {
    server = await startStrictOpenAIServer({ script: ['only one'] });
    await client().chat.completions.create({ model: 'm', messages: hello });
    const error = await client(2)
      .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'And Rome?' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as Error).message).toContain(
      'StrictOpenAIServer script exhausted: request #2 arrived but only 1 reply was scripted',
    );
    expect((error as Error).message).toContain('user: "And Rome?"');
    expect(server.requests).toHaveLength(2);
  });

  it('close() ends open connections, clears delay timers, and resolves', async () => {
    const setSpy = vi.spyOn(globalThis, 'setTimeout');
    const clearSpy = vi.spyOn(globalThis, 'clearTimeout');
    const { arrived, reply } = arrival({ text: 'never', delayMs: 60_000 });
    server = await startStrictOpenAIServer({ script: [reply] });
    const pending = post({ model: 'm', messages: hello }).catch((e: unknown) => e);
    await arrived;
    await server.close();
    expect(await pending).toBeInstanceOf(Error);
    const recorded = server.requests[0]!;
    await recorded.done;
    expect(recorded.aborted).toBe(false);
    const timerCall = setSpy.mock.calls.findIndex((call) => call[1] === 60_000);
    expect(clearSpy).toHaveBeenCalledWith(setSpy.mock.results[timerCall]?.value);
    await expect(post({ model: 'm', messages: hello })).rejects.toThrow();
  });
});
