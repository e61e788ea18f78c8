import { AnthropicChatModel } from '@rxagent/anthropic';
import {
  type ChatChunk,
  type ChatRequest,
  type JsonObject,
  ModelError,
  Toolkit,
  textOf,
  tool,
  toolUses,
  userMsg,
} from '@rxagent/core';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { modelFor, strictServer } from './harness.js';

const hi: ChatRequest = {
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hi' },
  ],
};

function chunksOf(model: AnthropicChatModel, request: ChatRequest): Promise<ChatChunk[]> {
  return lastValueFrom(model.stream(request).pipe(toArray()));
}

function weatherToolkit(calls: string[] = []): Toolkit {
  return new Toolkit([
    tool({
      name: 'get_weather',
      description: 'Current weather of a city.',
      parameters: z.object({ city: z.string() }),
      execute: ({ city }) => {
        calls.push(city);
        return city === 'Paris' ? 'Sunny, 21°C' : 'Rain, 12°C';
      },
    }),
  ]);
}

describe('AnthropicChatModel', () => {
  it('streams text word by word with the system prompt as `system`, then usage and the finish reason', async () => {
    const server = await strictServer(['Hello there, friend.']);
    const chunks = await chunksOf(modelFor(server), hi);
    expect(chunks.filter((c) => c.text).map((c) => c.text)).toEqual([
      'Hello ',
      'there, ',
      'friend.',
    ]);
    const last = chunks.at(-1)!;
    expect(last.finishReason).toBe('stop');
    expect(last.usage?.outputTokens).toBeGreaterThan(0);
    const body = server.requests[0]!.body;
    expect(body['system']).toEqual([{ type: 'text', text: 'Be brief.' }]);
    expect(body['messages']).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
    expect(body['max_tokens']).toBe(4096);
    expect(body['stream']).toBe(true);
  });

  it('runs a ReAct loop with parallel tool calls, pairing each tool_use with its tool_result', async () => {
    const server = await strictServer([
      {
        text: 'Checking both.',
        toolCalls: [
          { name: 'get_weather', arguments: { city: 'Paris' } },
          { name: 'get_weather', arguments: { city: 'Oslo' } },
        ],
      },
      'Paris is sunny, Oslo rainy.',
    ]);
    const calls: string[] = [];
    const agent = new ReActAgent({
      name: 'assistant',
      sysPrompt: 'Use tools.',
      model: modelFor(server),
      toolkit: weatherToolkit(calls),
    });
    const reply = await lastValueFrom(agent.call(userMsg('Weather in Paris and Oslo?')));
    expect(textOf(reply)).toBe('Paris is sunny, Oslo rainy.');
    expect(calls.sort()).toEqual(['Oslo', 'Paris']);
    const second = server.requests[1]!.body['messages'] as JsonObject[];
    expect(second.map((m) => m['role'])).toEqual(['user', 'assistant', 'user']);
    expect(second[2]!['content']).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'Sunny, 21°C' },
      { type: 'tool_result', tool_use_id: 'toolu_2', content: 'Rain, 12°C' },
    ]);
    const tools = server.requests[0]!.body['tools'] as JsonObject[];
    expect(tools[0]).toMatchObject({ name: 'get_weather', input_schema: { type: 'object' } });
  });

  it('keeps thinking with its signature and redacted thinking, and sends both back unchanged in a tool loop', async () => {
    const server = await strictServer([
      {
        thinking: 'The user wants the weather; call the tool.',
        redactedThinking: true,
        toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
      },
      { thinking: 'Now answer.', text: 'Sunny in Paris.' },
    ]);
    const model = modelFor(server, {
      maxTokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 2048 },
    });
    const agent = new ReActAgent({
      name: 'assistant',
      sysPrompt: '',
      model,
      toolkit: weatherToolkit(),
    });
    const reply = await lastValueFrom(agent.call(userMsg('Weather in Paris?')));
    expect(textOf(reply)).toBe('Sunny in Paris.');
    const first = agent.memory.messages()[1]!;
    expect(first.content[0]).toMatchObject({
      type: 'thinking',
      thinking: 'The user wants the weather; call the tool.',
      signature: expect.stringMatching(/^sig_/),
    });
    expect(first.content[1]).toMatchObject({
      type: 'thinking',
      provider: { redacted: expect.any(String) },
    });
    const sent = (server.requests[1]!.body['messages'] as JsonObject[])[1]![
      'content'
    ] as JsonObject[];
    expect(sent.map((block) => block['type'])).toEqual([
      'thinking',
      'redacted_thinking',
      'tool_use',
    ]);
    expect(server.requests[1]!.body['thinking']).toEqual({ type: 'enabled', budget_tokens: 2048 });
  });

  it('is answered 400 (not retried) when a thinking signature was changed', async () => {
    const server = await strictServer(['never'], 1);
    const request: ChatRequest = {
      messages: [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: 'a',
          thinking: [{ type: 'thinking', thinking: 'mine', signature: 'sig_forged' }],
        },
        { role: 'user', content: 'again' },
      ],
    };
    const error = await chunksOf(modelFor(server), request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).status).toBe(400);
    expect((error as ModelError).retryable).toBe(false);
    expect((error as ModelError).message).toMatch(/Invalid `signature`/);
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ['required', { type: 'any' }],
    [{ name: 'get_weather' }, { type: 'tool', name: 'get_weather' }],
    ['none', { type: 'none' }],
    ['auto', { type: 'auto' }],
  ] as const)('maps toolChoice %j to %j', async (toolChoice, wire) => {
    const server = await strictServer([
      { toolCalls: [{ name: 'get_weather', arguments: { city: 'Rome' } }] },
    ]);
    const tools = weatherToolkit().schemas();
    await chunksOf(modelFor(server), { ...hi, tools, toolChoice });
    expect(server.requests[0]!.body['tool_choice']).toEqual(wire);
  });

  it('sends disable_parallel_tool_use when parallel tool calls are off', async () => {
    const server = await strictServer(['ok']);
    await chunksOf(modelFor(server), {
      ...hi,
      tools: weatherToolkit().schemas(),
      parallelToolCalls: false,
    });
    expect(server.requests[0]!.body['tool_choice']).toEqual({
      type: 'auto',
      disable_parallel_tool_use: true,
    });
  });

  it('puts cache_control on the system prompt and the last tool, and reports cache writes then reads', async () => {
    const server = await strictServer(['one', 'two']);
    const model = modelFor(server, { cache: true });
    // Long enough to be cached (the API caches a prefix only from 1,024 tokens).
    const system = { role: 'system' as const, content: 'Be brief. '.repeat(500) };
    const request = {
      ...hi,
      messages: [system, hi.messages[1]!],
      tools: weatherToolkit().schemas(),
    };
    const first = (await chunksOf(model, request)).at(-1)!.usage!;
    const second = (await chunksOf(model, request)).at(-1)!.usage!;
    const body = server.requests[0]!.body;
    expect((body['system'] as JsonObject[])[0]!['cache_control']).toEqual({ type: 'ephemeral' });
    expect((body['tools'] as JsonObject[]).at(-1)!['cache_control']).toEqual({ type: 'ephemeral' });
    expect(first.cacheWriteTokens).toBeGreaterThan(0);
    expect(first.cacheReadTokens).toBe(0);
    expect(first.cachedInputTokens).toBe(0);
    // The repeat reads everything up to its last breakpoint (the final message).
    expect(second.cacheReadTokens).toBe(first.cacheWriteTokens);
    expect(second.cachedInputTokens).toBe(second.cacheReadTokens);
    expect(second.inputTokens).toBe(second.totalTokens - second.outputTokens);
    expect(second.inputTokens).toBeGreaterThanOrEqual(second.cacheReadTokens!);
  });

  it('retries a 529 overloaded answer and an overloaded_error event before the first chunk', async () => {
    const server = await strictServer([
      { error: { status: 529, message: 'Overloaded' } },
      { text: 'late', error: { type: 'overloaded_error', message: 'Overloaded', afterChunks: 0 } },
      'Finally.',
    ]);
    const chunks = await chunksOf(modelFor(server), hi);
    expect(chunks.map((c) => c.text ?? '').join('')).toBe('Finally.');
    expect(server.requests).toHaveLength(3);
  });

  it('fails with the overload after the retries run out, naming the status', async () => {
    const overloaded = { error: { status: 529, message: 'Overloaded' } };
    const server = await strictServer([overloaded, overloaded]);
    const error = await chunksOf(modelFor(server, { maxRetries: 1 }), hi).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).status).toBe(529);
    expect((error as ModelError).retryable).toBe(true);
    expect((error as ModelError).message).toMatch(/HTTP 529 overloaded_error: Overloaded/);
  });

  it('never retries after a chunk: an error event mid-stream fails the request', async () => {
    const server = await strictServer([
      { text: 'one two three', error: { type: 'api_error', message: 'Internal', afterChunks: 2 } },
      'unused',
    ]);
    const seen: ChatChunk[] = [];
    const error = await new Promise((resolve) => {
      modelFor(server)
        .stream(hi)
        .subscribe({ next: (chunk) => seen.push(chunk), error: resolve });
    });
    expect(seen.map((chunk) => chunk.text)).toEqual(['one ', 'two ']);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toMatch(/api_error mid-stream: Internal/);
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry a 400', async () => {
    const server = await strictServer([{ error: { status: 400, message: 'bad' } }, 'unused']);
    const error = await chunksOf(modelFor(server), hi).catch((e: unknown) => e);
    expect((error as ModelError).status).toBe(400);
    expect(server.requests).toHaveLength(1);
  });

  it('fails a stream cut before message_stop with a ModelError saying so', async () => {
    const server = await strictServer([
      { text: 'one two three', error: { type: 'reset', afterChunks: 1 } },
    ]);
    const error = await chunksOf(modelFor(server, { maxRetries: 0 }), hi).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).retryable).toBe(true);
  });

  it('keeps the conversation valid after an interrupt mid-stream', async () => {
    const server = await strictServer([
      { text: 'a long answer that streams slowly', chunkDelayMs: 30 },
      'Fresh start.',
    ]);
    const agent = new ReActAgent({ name: 'assistant', sysPrompt: 'Hi.', model: modelFor(server) });
    const remove = agent.addHook({
      events: ['reasoningChunk'],
      onEvent: () => {
        agent.interrupt();
      },
    });
    const cut = await lastValueFrom(agent.call(userMsg('Tell me a story.')));
    remove();
    expect(cut.metadata['generateReason']).toBe('interrupted');
    expect(agent.memory.messages().some((m) => m.metadata['partial'] === true)).toBe(true);
    const reply = await lastValueFrom(agent.call(userMsg('Again, short.')));
    expect(textOf(reply)).toBe('Fresh start.');
    expect(server.requests).toHaveLength(2);
    expect(server.rejected).toEqual([]);
  });

  it('times out when no event arrives for timeoutMs, between events too', async () => {
    const server = await strictServer([{ text: 'one two three', chunkDelayMs: 5_000 }]);
    const started = performance.now();
    const error = await chunksOf(modelFor(server, { timeoutMs: 300, maxRetries: 0 }), hi).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toMatch(/nothing arrived for 300 ms/);
    expect((error as ModelError).retryable).toBe(true);
    expect(performance.now() - started).toBeLessThan(4_000);
  });

  it('errors with an AbortError and closes the request when the signal aborts mid-stream', async () => {
    const server = await strictServer([{ text: 'one two three four', chunkDelayMs: 200 }]);
    const controller = new AbortController();
    const seen: ChatChunk[] = [];
    const error = await new Promise((resolve) => {
      modelFor(server)
        .stream({ ...hi, signal: controller.signal })
        .subscribe({
          next: (chunk) => {
            seen.push(chunk);
            controller.abort();
          },
          error: resolve,
        });
    });
    expect((error as Error).name).toBe('AbortError');
    expect(seen).toHaveLength(1);
  });

  it('rejects unknown options, naming the right one', () => {
    expect(
      () => new AnthropicChatModel({ model: 'x', apiKey: 'k', baseUrl: 'h' } as never),
    ).toThrow(/unknown option "baseUrl" \(did you mean "baseURL"\?\)/);
    expect(() => new AnthropicChatModel({ model: 'x', apiKey: 'k', maxTokens: 0 })).toThrow(
      /maxTokens/,
    );
  });

  it('reads tool calls back as tool_use blocks of the reply', async () => {
    const server = await strictServer([
      { toolCalls: [{ id: 'toolu_x', name: 'get_weather', arguments: '{"city":"Pa' + 'ris"}' }] },
      'done',
    ]);
    const agent = new ReActAgent({
      name: 'a',
      sysPrompt: '',
      model: modelFor(server),
      toolkit: weatherToolkit(),
    });
    await lastValueFrom(agent.call(userMsg('w?')));
    expect(toolUses(agent.memory.messages()[1]!)).toEqual([
      { type: 'tool_use', id: 'toolu_x', name: 'get_weather', input: { city: 'Paris' } },
    ]);
  });
});
