import { firstValueFrom, lastValueFrom, Observable, of, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ContextWindowError, InvalidArgumentError, ModelError } from '../errors.js';
import type { HookEvent } from '../hooks/hookEvent.js';
import type { ToolUseBlock } from '../message/contentBlock.js';
import { assistantMsg, createMsg, type Msg, userMsg } from '../message/msg.js';
import { textOf } from '../message/readers.js';
import type { ChatModel, ToolSchema } from '../model/chatModel.js';
import { ScriptedChatModel } from '../testing/scriptedChatModel.js';
import { EchoAgent } from '../testing/testAgents.js';
import { validateChatRequest } from '../testing/validateChatRequest.js';
import { toWireRequest } from '../testing/wireRequest.js';
import { type CompressContextOptions, compressContext } from './compressContext.js';
import { estimateTokens } from './estimateTokens.js';

const agent = new EchoAgent({ name: 'bot' });
const tools: ToolSchema[] = [
  {
    type: 'function',
    function: {
      name: 'lookup',
      description: 'Looks a thing up.',
      parameters: { type: 'object', properties: { q: { type: 'string' } } },
    },
  },
];

/** Ten question/tool/answer rounds of about 100 tokens each. */
function history(rounds = 10): Msg[] {
  const msgs: Msg[] = [];
  for (let round = 0; round < rounds; round++) {
    const call: ToolUseBlock = {
      type: 'tool_use',
      id: `call_${round}`,
      name: 'lookup',
      input: { q: `q${round}` },
    };
    msgs.push(
      userMsg(`Question ${round}: ${'why '.repeat(30)}`),
      assistantMsg([call], { name: 'bot' }),
      createMsg({
        name: 'bot',
        role: 'tool',
        content: [{ type: 'tool_result', id: call.id, name: 'lookup', output: 'fact '.repeat(40) }],
      }),
      assistantMsg(`Answer ${round}.`, { name: 'bot' }),
    );
  }
  return msgs;
}

function recorder() {
  const events: HookEvent[] = [];
  const notify = <E extends HookEvent>(event: E): Observable<E> => {
    events.push({ ...event });
    return of(event);
  };
  return { events, notify };
}

function options(overrides: Partial<CompressContextOptions> = {}): CompressContextOptions {
  return {
    agent,
    messages: history(),
    systemPrompt: 'You help.',
    tools,
    maxTokens: 1_000,
    ...overrides,
  };
}

const request = (messages: readonly Msg[]) =>
  estimateTokens({ systemPrompt: 'You help.', messages, tools });

describe('compressContext', () => {
  it('emits the count and does nothing else when the request fits', async () => {
    const model = new ScriptedChatModel([]);
    const { events, notify } = recorder();
    const result = await lastValueFrom(
      compressContext(options({ maxTokens: 100_000, summaryModel: model, notify })),
    );
    expect(result).toEqual({ compressed: false, tokens: request(history()) });
    expect(model.requests).toHaveLength(0);
    expect(events).toHaveLength(0);
  });

  it('summarises the oldest messages with one tool-less, valid request and counts before and after', async () => {
    const messages = history();
    const model = new ScriptedChatModel([
      {
        text: 'The user asked ten questions; lookup found facts.',
        usage: { inputTokens: 900, outputTokens: 12 },
      },
    ]);
    const { events, notify } = recorder();
    const result = await lastValueFrom(
      compressContext(options({ messages, summaryModel: model, notify })),
    );
    if (!result.compressed) throw new Error('expected a compression');

    expect(model.requests).toHaveLength(1);
    const sent = model.requests[0]!;
    expect(sent.tools).toBeUndefined();
    expect(sent.toolChoice).toBeUndefined();
    expect(validateChatRequest(toWireRequest(sent, 'summary-model'))).toBeUndefined();
    expect(sent.messages.every((m) => m.role === 'system' || m.role === 'user')).toBe(true);
    const transcript = sent.messages[1]!.content as string;
    expect(transcript).toContain('[assistant bot calls lookup {"q":"q0"}]');
    expect(transcript).toContain('[result of lookup] fact fact');

    expect([...result.replaced, ...result.kept]).toEqual(messages);
    expect(result.kept.length).toBeGreaterThanOrEqual(6);
    expect(result.summary).toMatchObject({
      role: 'user',
      name: 'system',
      metadata: {
        compressed: {
          count: result.replaced.length,
          tokensBefore: request(messages),
          tokensAfter: request([result.summary, ...result.kept]),
        },
      },
    });
    expect(textOf(result.summary)).toBe(
      `[Summary of ${result.replaced.length} earlier messages]\nThe user asked ten questions; lookup found facts.`,
    );
    expect(result.tokensBefore).toBe(request(messages));
    expect(result.tokensAfter).toBeLessThanOrEqual(1_000);
    expect(result.usage).toEqual({ inputTokens: 900, outputTokens: 12, totalTokens: 912 });

    expect(events.map((e) => e.type)).toEqual(['preCompress', 'postCompress']);
    expect(events[0]).toMatchObject({
      agent,
      messages: result.replaced,
      tokens: result.tokensBefore,
    });
    expect(events[1]).toMatchObject({
      agent,
      summary: result.summary,
      removed: result.replaced.length,
      tokensBefore: result.tokensBefore,
      tokensAfter: result.tokensAfter,
    });
  });

  it('replaces only as many messages as it takes to reach the target, half of maxTokens by default', async () => {
    const messages = history();
    const maxTokens = Math.floor(request(messages) * 0.9);
    const result = await lastValueFrom(
      compressContext(options({ messages, strategy: 'drop', maxTokens })),
    );
    if (!result.compressed) throw new Error('expected a compression');
    expect(request(result.kept)).toBeLessThanOrEqual(maxTokens / 2);
    expect(result.kept.length).toBeGreaterThan(6);
    // One round fewer replaced would not have reached the target.
    expect(request(messages.slice(result.replaced.length - 4))).toBeGreaterThan(maxTokens / 2);
  });

  it("drops the oldest messages behind a marker with strategy 'drop', without a model", async () => {
    const result = await lastValueFrom(compressContext(options({ strategy: 'drop' })));
    if (!result.compressed) throw new Error('expected a compression');
    expect(textOf(result.summary)).toMatch(
      new RegExp(`^\\[${result.replaced.length} earlier messages were dropped`),
    );
    expect(result.summary.metadata['compressed']).toMatchObject({ count: result.replaced.length });
  });

  it('keeps the reasoning to send back (thinking provider data, tool-call extraContent) on the messages it keeps', async () => {
    const messages = history().map((msg): Msg => {
      if (msg.role !== 'assistant' || msg.content[0]?.type !== 'tool_use') return msg;
      const call = msg.content[0];
      return {
        ...msg,
        metadata: { model: 'm1' },
        content: [
          {
            type: 'thinking',
            thinking: 'Look it up.',
            signature: 'c2ln',
            provider: { reasoningField: 'reasoning_content', reasoningDetails: [{ index: 0 }] },
          },
          { ...call, provider: { extraContent: { google: { thought_signature: 'AAA=' } } } },
        ],
      };
    });
    const result = await lastValueFrom(compressContext(options({ messages, strategy: 'drop' })));
    if (!result.compressed) throw new Error('expected a compression');
    const keptCalls = result.kept.filter((msg) => msg.content[0]?.type === 'thinking');
    expect(keptCalls.length).toBeGreaterThan(0);
    for (const msg of keptCalls) {
      const original = messages.find((m) => m.id === msg.id)!;
      expect(msg).toEqual(original);
    }
  });

  it('lets a postCompress hook replace the summary, then counts it again', async () => {
    const notify = <E extends HookEvent>(event: E): Observable<E> => {
      if (event.type === 'postCompress') event.summary = userMsg('short', { name: 'system' });
      return of(event);
    };
    const result = await lastValueFrom(compressContext(options({ strategy: 'drop', notify })));
    if (!result.compressed) throw new Error('expected a compression');
    expect(textOf(result.summary)).toBe('short');
    expect(result.tokensAfter).toBe(request([result.summary, ...result.kept]));
    expect(result.summary.metadata['compressed']).toMatchObject({
      tokensAfter: result.tokensAfter,
    });
  });

  it('errors with ContextWindowError, before any hook or summary request, when what stays does not fit', async () => {
    const messages = [...history(3), userMsg('x'.repeat(8_000))];
    const { events, notify } = recorder();
    const summaryModel = new ScriptedChatModel([{ text: 'Summary.' }]);
    const error = await firstValueFrom(
      compressContext(options({ messages, summaryModel, notify, keepRecent: 1 })),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextWindowError);
    expect(error).toMatchObject({ code: 'CONTEXT_WINDOW_EXCEEDED', maxTokens: 1_000 });
    expect((error as ContextWindowError).tokens).toBeGreaterThan(1_000);
    expect(events).toEqual([]);
    expect(summaryModel.requests).toEqual([]);
  });

  it('errors with ContextWindowError, before postCompress, when the summary makes the request too large', async () => {
    const messages = history(3);
    const { events, notify } = recorder();
    const long = new ScriptedChatModel([{ text: 'word '.repeat(2_000) }]);
    const error = await firstValueFrom(
      compressContext(
        options({ messages, summaryModel: long, notify, maxTokens: 300, keepRecent: 1 }),
      ),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextWindowError);
    expect(events.map((e) => e.type)).toEqual(['preCompress']);
  });

  it('never replaces the pinned messages, and keepRecent counts after them', async () => {
    const messages = history(10);
    const question = messages[4]!;
    const result = await firstValueFrom(
      compressContext(
        options({
          messages,
          strategy: 'drop',
          keepRecent: 2,
          maxTokens: 600,
          pinned: [question.id],
        }),
      ),
    );
    expect(result.compressed).toBe(true);
    if (!result.compressed) return;
    expect(result.replaced).not.toContain(question);
    expect(result.kept[0]).toBe(question);
    expect(result.replaced).toContain(messages[5]);
    expect(result.kept.slice(-2)).toEqual(messages.slice(-2));
    expect(result.tokensAfter).toBeLessThanOrEqual(600);
  });

  it('errors with ContextWindowError when no message can be replaced', async () => {
    const messages = history(2);
    const error = await firstValueFrom(
      compressContext(options({ messages, maxTokens: 50, keepRecent: 8, strategy: 'drop' })),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextWindowError);
    expect((error as Error).message).toMatch(/none of its 8 messages can be compressed/);
  });

  it('errors with the summary model error, and with a ModelError for an empty summary', async () => {
    const failing = new ScriptedChatModel([{ error: { status: 500 } }]);
    await expect(
      lastValueFrom(compressContext(options({ summaryModel: failing }))),
    ).rejects.toBeInstanceOf(ModelError);
    const empty = new ScriptedChatModel([{ text: '  ' }]);
    await expect(lastValueFrom(compressContext(options({ summaryModel: empty })))).rejects.toThrow(
      /returned no text/,
    );
  });

  it('errors (never throws) for bad options, and with a hook error', async () => {
    const source = compressContext(options({ maxTokens: 0 }));
    await expect(lastValueFrom(source)).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(lastValueFrom(compressContext(options()))).rejects.toThrow(/needs a summaryModel/);
    await expect(
      lastValueFrom(compressContext(options({ strategy: 'drop', keepRecent: -2 }))),
    ).rejects.toThrow(/keepRecent/);
    const boom = new Error('hook failed');
    const notify = <E extends HookEvent>(): Observable<E> => throwError(() => boom);
    await expect(
      lastValueFrom(compressContext(options({ strategy: 'drop', notify }))),
    ).rejects.toBe(boom);
  });

  it('cancels the summary request on unsubscribe, and passes the signal on', () => {
    let torn = false;
    let signal: AbortSignal | undefined;
    const model: ChatModel = {
      modelName: 'never',
      stream: (request) => {
        signal = request.signal;
        return new Observable(() => () => {
          torn = true;
        });
      },
    };
    const controller = new AbortController();
    const subscription = compressContext(
      options({ summaryModel: model, signal: controller.signal }),
    ).subscribe();
    expect(signal).toBe(controller.signal);
    subscription.unsubscribe();
    expect(torn).toBe(true);
  });

  it('is cold: nothing is counted or requested before subscription', () => {
    let counted = 0;
    const source = compressContext(
      options({
        strategy: 'drop',
        countTokens: () => {
          counted++;
          return 0;
        },
      }),
    );
    expect(counted).toBe(0);
    source.subscribe();
    expect(counted).toBe(1);
  });
});
