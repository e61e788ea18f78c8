import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isAbortError, ModelError, ScriptExhaustedError } from '../errors.js';
import type { ChatMessage } from '../model/chatMessage.js';
import type { ChatChunk, ChatRequest, ToolSchema } from '../model/chatModel.js';
import { ChatResponseAccumulator } from '../model/chatResponse.js';
import { ScriptedChatModel } from './scriptedChatModel.js';

const ask = (text = 'Hi', extra: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [{ role: 'user', content: text }],
  ...extra,
});

const weatherTool: ToolSchema = {
  type: 'function',
  function: { name: 'get_weather', description: 'Weather.', parameters: { type: 'object' } },
};

function collect(model: ScriptedChatModel, request: ChatRequest = ask()): Promise<ChatChunk[]> {
  return lastValueFrom(model.stream(request).pipe(toArray()));
}

async function errorOf(model: ScriptedChatModel, request: ChatRequest = ask()): Promise<unknown> {
  return collect(model, request).then(
    () => expect.fail('expected the stream to error'),
    (error: unknown) => error,
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe('ScriptedChatModel', () => {
  it('streams thinking, word-sized text chunks, then the final chunk with usage and finish reason', async () => {
    const model = new ScriptedChatModel([{ thinking: 'Let me see', text: 'Hello big world' }]);
    const chunks = await collect(model);
    expect(chunks).toEqual([
      { thinking: 'Let' },
      { thinking: ' me' },
      { thinking: ' see' },
      { text: 'Hello' },
      { text: ' big' },
      { text: ' world' },
      { usage: { inputTokens: 1, outputTokens: 7, totalTokens: 8 }, finishReason: 'stop' },
    ]);
  });

  it('splits text by chunkSize when given', async () => {
    const model = new ScriptedChatModel([{ text: 'abcdef', chunkSize: 4 }]);
    const texts = (await collect(model)).flatMap((c) => (c.text ? [c.text] : []));
    expect(texts).toEqual(['abcd', 'ef']);
  });

  it('streams tool calls as a head delta and 2+ argument fragments that accumulate into whole calls', async () => {
    const model = new ScriptedChatModel([
      {
        text: 'Checking.',
        toolCalls: [
          { name: 'get_weather', arguments: { city: 'Paris', units: 'metric' } },
          { id: 'call_custom', name: 'get_time', arguments: '{"tz":' },
        ],
      },
      { toolCalls: [{ name: 'get_weather', arguments: {} }] },
    ]);
    const chunks = await collect(model);
    const toolDeltas = chunks.flatMap((c) => c.toolCalls ?? []);
    expect(toolDeltas[0]).toEqual({ index: 0, id: 'call_1', name: 'get_weather' });
    expect(
      toolDeltas.filter((d) => d.index === 0 && d.arguments !== undefined).length,
    ).toBeGreaterThanOrEqual(2);
    const accumulator = new ChatResponseAccumulator();
    for (const chunk of chunks) accumulator.add(chunk);
    expect(accumulator.response()).toMatchObject({
      text: 'Checking.',
      toolCalls: [
        { id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris","units":"metric"}' },
        { id: 'call_custom', name: 'get_time', arguments: '{"tz":' },
      ],
      finishReason: 'tool_calls',
    });
    const next = await collect(model);
    expect(next[0]?.toolCalls).toEqual([{ index: 0, id: 'call_2', name: 'get_weather' }]);
  });

  it('answers string and function replies; a function gets the request and its position', async () => {
    const reply = vi.fn(
      (request: ChatRequest, index: number) => `#${index}: ${request.messages.length}`,
    );
    const model = new ScriptedChatModel(['plain', reply]);
    const text = async (request: ChatRequest) =>
      (await collect(model, request)).map((c) => c.text ?? '').join('');
    expect(await text(ask())).toBe('plain');
    expect(await text(ask())).toBe('#1: 1');
    expect(reply).toHaveBeenCalledTimes(1);
  });

  it('is cold and records every request as a snapshot of what it received', async () => {
    const model = new ScriptedChatModel(['one']);
    const messages: ChatMessage[] = [{ role: 'user', content: 'before' }];
    const stream = model.stream({ messages });
    expect(model.requests).toHaveLength(0);
    await lastValueFrom(stream);
    messages[0]!.content = 'after';
    messages.push({ role: 'user', content: 'more' });
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]?.messages).toEqual([{ role: 'user', content: 'before' }]);
  });

  it('takes more replies through enqueue and reports how many remain', async () => {
    const model = new ScriptedChatModel([]);
    model.enqueue('a', 'b');
    expect(model.remaining).toBe(2);
    await collect(model);
    expect(model.remaining).toBe(1);
  });

  it('rejects, when strict, a request the real API would reject, without using a reply', async () => {
    const model = new ScriptedChatModel(['unused']);
    const request = ask('Hi', {});
    request.messages.push({ role: 'tool', content: 'orphan', tool_call_id: 'call_1' });
    const error = await errorOf(model, request);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ status: 400, retryable: false });
    expect((error as Error).message).toBe(
      'ScriptedChatModel rejected request #1: messages[1]: tool message (tool_call_id call_1) does not follow an assistant message with tool_calls; a tool result must come right after the assistant message that made the call',
    );
    expect(model.remaining).toBe(1);
    expect(model.requests).toHaveLength(1);
  });

  it('validates toolChoice and parallelToolCalls under their wire names', async () => {
    const model = new ScriptedChatModel(['ok', 'unused']);
    await collect(model, ask('Hi', { tools: [weatherTool], toolChoice: { name: 'get_weather' } }));
    const unknownTool = await errorOf(
      model,
      ask('Hi', { tools: [weatherTool], toolChoice: { name: 'nope' } }),
    );
    expect((unknownTool as Error).message).toContain(
      'rejected request #2: tool_choice: function "nope" is not in tools',
    );
    const noTools = await errorOf(model, ask('Hi', { tools: [], parallelToolCalls: false }));
    expect((noTools as Error).message).toContain(
      "parallel_tool_calls: 'parallel_tool_calls' is only allowed",
    );
  });

  it('accepts any request when not strict', async () => {
    const model = new ScriptedChatModel(['fine'], { strict: false, modelName: 'loose' });
    const request = ask();
    request.messages.push({ role: 'tool', content: 'orphan', tool_call_id: 'call_1' });
    expect(await collect(model, request)).toContainEqual({ text: 'fine' });
    expect(model.modelName).toBe('loose');
  });

  it('errors with ScriptExhaustedError naming the script size and the last message', async () => {
    const model = new ScriptedChatModel(['only']);
    await collect(model);
    const error = await errorOf(model, ask('What about Rome?'));
    expect(error).toBeInstanceOf(ScriptExhaustedError);
    expect((error as Error).message).toContain('request #2 arrived but only 1 reply was scripted');
    expect((error as Error).message).toContain('user: "What about Rome?"');
  });

  it.each([
    [429, true],
    [503, true],
    [400, false],
    [undefined, true],
  ])(
    'fails a scripted error with status %s as a ModelError (retryable: %s)',
    async (status, retryable) => {
      const model = new ScriptedChatModel([
        { error: { ...(status !== undefined && { status }), message: 'boom' } },
      ]);
      const error = await errorOf(model);
      expect(error).toBeInstanceOf(ModelError);
      expect(error).toMatchObject({ status, retryable });
      expect((error as Error).message).toBe('ScriptedChatModel: boom');
    },
  );

  it('streams afterChunks chunks before a scripted mid-stream error', async () => {
    const model = new ScriptedChatModel([{ text: 'one two three', error: { afterChunks: 2 } }]);
    const seen: ChatChunk[] = [];
    const error = await new Promise((resolve) => {
      model.stream(ask()).subscribe({ next: (c) => seen.push(c), error: resolve });
    });
    expect(seen).toEqual([{ text: 'one' }, { text: ' two' }]);
    expect(error).toMatchObject({
      retryable: true,
      message: 'ScriptedChatModel: connection reset (scripted)',
    });
  });

  it('waits delayMs before the first chunk and chunkDelayMs between chunks', async () => {
    vi.useFakeTimers();
    const model = new ScriptedChatModel([{ text: 'a b', delayMs: 100, chunkDelayMs: 10 }]);
    const seen: ChatChunk[] = [];
    model.stream(ask()).subscribe((c) => seen.push(c));
    await vi.advanceTimersByTimeAsync(99);
    expect(seen).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen).toEqual([{ text: 'a' }]);
    await vi.advanceTimersByTimeAsync(10);
    expect(seen).toEqual([{ text: 'a' }, { text: ' b' }]);
    await vi.advanceTimersByTimeAsync(10);
    expect(seen).toHaveLength(3);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('errors with an AbortError and clears its timer when the signal aborts during a delay', async () => {
    vi.useFakeTimers();
    const model = new ScriptedChatModel([{ text: 'late', delayMs: 60_000 }]);
    const controller = new AbortController();
    const result = firstValueFrom(model.stream(ask('Hi', { signal: controller.signal }))).catch(
      (e: unknown) => e,
    );
    expect(vi.getTimerCount()).toBe(1);
    controller.abort();
    const error = await result;
    expect((error as Error).name).toBe('AbortError');
    expect(isAbortError(error)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('errors at once, without recording a request, when the signal is already aborted', async () => {
    const model = new ScriptedChatModel(['unused']);
    const error = await errorOf(model, ask('Hi', { signal: AbortSignal.abort() }));
    expect(isAbortError(error)).toBe(true);
    expect(model.requests).toHaveLength(0);
    expect(model.remaining).toBe(1);
  });

  it('clears its timers when unsubscribed mid-delay', () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const model = new ScriptedChatModel([{ text: 'never', delayMs: 60_000 }]);
    const next = vi.fn();
    const subscription = model.stream(ask('Hi', { signal: controller.signal })).subscribe(next);
    expect(vi.getTimerCount()).toBe(1);
    subscription.unsubscribe();
    expect(vi.getTimerCount()).toBe(0);
    controller.abort();
    vi.advanceTimersByTime(60_000);
    expect(next).not.toHaveBeenCalled();
  });
});
