import {
  type AgentEvent,
  type ChatChunk,
  type ChatModel,
  type ChatRequest,
  ContextWindowError,
  estimateTokens,
  InvalidArgumentError,
  type Msg,
  SUMMARY_PROMPT,
  Toolkit,
  textOf,
  tool,
  userMsg,
} from '@rxagent/core';
import type { ScriptedTurn, StrictOpenAIServer } from '@rxagent/core/testing';
import { pendingToolCalls, ReActAgent, type ReActAgentOptions } from '@rxagent/react-agent';
import { lastValueFrom, Observable, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harness, run, wireMessages } from './harness.js';

const PAGE = 'x'.repeat(1_600);

/** A tool whose every result is a long page (about 400 tokens by the default counter). */
function pageTool() {
  return tool({
    name: 'fetch_page',
    description: 'Fetches a page of the research archive.',
    parameters: z.object({ topic: z.string() }),
    execute: ({ topic }) => `Page about ${topic}: ${PAGE}`,
  });
}

function isSummaryRequest(request: ChatRequest): boolean {
  const first = request.messages[0];
  return first?.role === 'system' && first.content === SUMMARY_PROMPT;
}

/**
 * The research model: a summary request gets a summary; a turn ending in a user message
 * fetches a page; one ending in a tool result answers.
 */
function researcher(request: ChatRequest): ScriptedTurn {
  if (isSummaryRequest(request)) {
    return {
      text: 'The user researched several topics.',
      usage: { inputTokens: 1000, outputTokens: 100 },
    };
  }
  const last = request.messages[request.messages.length - 1];
  if (last?.role === 'user') {
    return {
      toolCalls: [{ name: 'fetch_page', arguments: { topic: String(last.content).slice(0, 20) } }],
      usage: { inputTokens: 10, outputTokens: 1 },
    };
  }
  return { text: 'Here is what the page says.', usage: { inputTokens: 10, outputTokens: 1 } };
}

const script = () => Array.from({ length: 200 }, () => researcher);

/** A preReasoning hook recording what each request counts by the default counter. */
function requestSizes(agent: ReActAgent): number[] {
  const sizes: number[] = [];
  agent.addHook({
    onEvent: (event) => {
      if (event.type !== 'preReasoning') return;
      sizes.push(
        estimateTokens({
          systemPrompt: event.systemPrompt,
          messages: event.messages,
          tools: event.tools,
          selfName: agent.name,
        }),
      );
    },
  });
  return sizes;
}

async function researchChat(
  options: Partial<ReActAgentOptions>,
  turns: number,
): Promise<{ server: StrictOpenAIServer; agent: ReActAgent; replies: Msg[]; sizes: number[] }> {
  const { server, agent } = await harness(script(), {
    toolkit: new Toolkit([pageTool()]),
    ...options,
  });
  const sizes = requestSizes(agent);
  const replies: Msg[] = [];
  for (let turn = 0; turn < turns; turn++) {
    replies.push(await run(agent, userMsg(`Topic ${turn}: tell me more.`)));
  }
  return { server, agent, replies, sizes };
}

function compressedIndexes(messages: readonly Msg[]): number[] {
  return messages.flatMap((msg, index) => (msg.metadata['compressed'] ? [index] : []));
}

describe('ReActAgent context', () => {
  it('keeps every request within maxTokens with summaries the strict server accepts', async () => {
    const { server, agent, sizes } = await researchChat(
      { context: { maxTokens: 1_500, keepRecent: 4 } },
      8,
    );
    expect(sizes).toHaveLength(16);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(1_500);
    const summaries = server.requests.filter((r) =>
      isSummaryRequest({ messages: r.body['messages'] } as unknown as ChatRequest),
    );
    expect(summaries.length).toBeGreaterThan(0);
    expect(summaries.every((r) => r.body['tools'] === undefined)).toBe(true);
    const messages = agent.memory.messages();
    expect(compressedIndexes(messages)).toEqual([0]);
    const summary = messages[0]!;
    expect(summary).toMatchObject({ role: 'user', name: 'system' });
    expect(textOf(summary)).toContain('The user researched several topics.');
    expect(summary.metadata['compressed']).toMatchObject({ count: expect.any(Number) });
    // Nothing kept starts with a tool result, and the newest turn is whole.
    expect(messages[1]!.role).not.toBe('tool');
    expect(messages.slice(-4).map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
  });

  it('never splits a tool call from its result and keeps the newest keepRecent messages', async () => {
    const compressions: Array<{ replaced: readonly Msg[]; memory: readonly Msg[] }> = [];
    const { agent, server } = await harness(script(), {
      toolkit: new Toolkit([pageTool()]),
      context: { maxTokens: 1_500, keepRecent: 5, strategy: 'drop' },
    });
    agent.addHook({
      onEvent: (event) => {
        if (event.type === 'preCompress') {
          compressions.push({ replaced: event.messages, memory: [...agent.memory.messages()] });
        }
      },
    });
    for (let turn = 0; turn < 8; turn++) await run(agent, userMsg(`Topic ${turn}`));
    expect(compressions.length).toBeGreaterThan(0);
    for (const { replaced, memory } of compressions) {
      const kept = memory.slice(replaced.length);
      expect(kept.length).toBeGreaterThanOrEqual(5);
      expect(kept[0]!.role).not.toBe('tool');
      const callIds = new Set(
        replaced.flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []))),
      );
      const keptResults = kept.flatMap((m) =>
        m.content.flatMap((b) => (b.type === 'tool_result' ? [b.id] : [])),
      );
      expect(keptResults.filter((id) => callIds.has(id))).toEqual([]);
    }
    // Every request after a compression starts with the marker, as a user message named system.
    const last = wireMessages(server, server.requests.length - 1);
    expect(last[1]).toMatchObject({ role: 'user', name: 'system' });
  });

  it("drops the oldest messages behind a marker with 'drop', sending no summary request", async () => {
    const { server, agent, sizes } = await researchChat(
      { context: { maxTokens: 1_500, strategy: 'drop' } },
      8,
    );
    for (const size of sizes) expect(size).toBeLessThanOrEqual(1_500);
    expect(server.requests).toHaveLength(16);
    expect(server.requests.every((r) => Array.isArray(r.body['tools']))).toBe(true);
    const first = agent.memory.messages()[0]!;
    expect(textOf(first)).toMatch(/earlier messages were dropped to fit the context window/);
    expect(first.metadata['compressed']).toBeDefined();
  });

  it("adds the summary request's usage to the call's usage", async () => {
    const { server, agent } = await harness(script(), {
      toolkit: new Toolkit([pageTool()]),
      context: { maxTokens: 1_500, keepRecent: 2 },
    });
    let reply: Msg | undefined;
    let requestsBefore = 0;
    for (let turn = 0; turn < 8; turn++) {
      requestsBefore = server.requests.length;
      reply = await run(agent, userMsg(`Topic ${turn}`));
      if (server.requests.length - requestsBefore === 3) break;
    }
    expect(server.requests.length - requestsBefore).toBe(3);
    expect(reply!.metadata['usage']).toEqual({
      inputTokens: 1_020,
      outputTokens: 102,
      totalTokens: 1_122,
    });
  });

  it('fails with ContextWindowError before sending anything, memory unchanged', async () => {
    const { server, agent } = await harness(['Hello.'], {
      context: { maxTokens: 300 },
    });
    await run(agent, userMsg('Hi'));
    const before = agent.memory.messages().map((m) => m.id);
    const error = await run(agent, userMsg('y'.repeat(4_000))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextWindowError);
    expect(error).toMatchObject({ code: 'CONTEXT_WINDOW_EXCEEDED', maxTokens: 300 });
    expect((error as ContextWindowError).tokens).toBeGreaterThan(300);
    expect(server.requests).toHaveLength(1);
    expect(agent.memory.messages().map((m) => m.id)).toEqual(before);
  });

  it('keeps the results of a resumed tool call when the next request cannot fit', async () => {
    const { server, agent } = await harness(
      [{ toolCalls: [{ id: 'c1', name: 'fetch_page', arguments: { topic: 'a' } }] }],
      { toolkit: new Toolkit([pageTool()]), context: { maxTokens: 300 } },
    );
    agent.addHook({
      onEvent: (event) => {
        if (event.type === 'postReasoning') event.stopAgent();
      },
    });
    await run(agent, userMsg('Read a page'));
    const error = await run(agent).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextWindowError);
    expect(server.requests).toHaveLength(1);
    const stored = agent.memory.messages();
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(JSON.stringify(stored[2]!.content)).toContain('Page about a');
  });

  it('fails with ContextWindowError when the system prompt alone is too large', async () => {
    const { server, agent } = await harness([], {
      sysPrompt: 'z'.repeat(4_000),
      context: { maxTokens: 500 },
    });
    const error = await run(agent, userMsg('Hi')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextWindowError);
    expect(server.requests).toHaveLength(0);
    expect(agent.memory.messages()).toEqual([]);
  });

  it('shows preCompress and postCompress in stream(), before that step’s request', async () => {
    const { agent } = await harness(script(), {
      toolkit: new Toolkit([pageTool()]),
      context: { maxTokens: 1_500, keepRecent: 2 },
    });
    let events: AgentEvent[] = [];
    for (let turn = 0; turn < 8; turn++) {
      events = await lastValueFrom(agent.stream(userMsg(`Topic ${turn}`)).pipe(toArray()));
      if (events.some((e) => e.type === 'preCompress')) break;
    }
    const types = events.map((e) => e.type);
    const pre = types.indexOf('preCompress');
    expect(pre).toBeGreaterThan(-1);
    expect(types[pre + 1]).toBe('postCompress');
    expect(types[pre + 2]).toBe('preReasoning');
    const post = events[pre + 1] as Extract<AgentEvent, { type: 'postCompress' }>;
    expect(post.tokensAfter).toBeLessThan(post.tokensBefore);
    expect(post.summary.metadata['compressed']).toMatchObject({ count: post.removed });
  });

  it('lets a postCompress hook replace the summary, which is stored', async () => {
    const { agent } = await harness(script(), {
      toolkit: new Toolkit([pageTool()]),
      context: { maxTokens: 1_500, strategy: 'drop' },
    });
    agent.addHook({
      onEvent: (event) => {
        if (event.type !== 'postCompress') return;
        event.summary = {
          ...event.summary,
          content: [{ type: 'text', text: 'Notes kept by a hook.' }],
        };
      },
    });
    for (let turn = 0; turn < 8; turn++) await run(agent, userMsg(`Topic ${turn}`));
    expect(textOf(agent.memory.messages()[0]!)).toBe('Notes kept by a hook.');
  });

  it('keeps the summary through stateDict() and loadStateDict(), and the restored agent goes on', async () => {
    const options = {
      toolkit: new Toolkit([pageTool()]),
      context: { maxTokens: 1_500, keepRecent: 4 },
    };
    const { agent, server } = await harness(script(), options);
    for (let turn = 0; turn < 8; turn++) await run(agent, userMsg(`Topic ${turn}`));
    const saved = JSON.stringify(agent.stateDict());
    expect(compressedIndexes(agent.memory.messages())).toEqual([0]);
    const restored = new ReActAgent({
      name: 'assistant',
      sysPrompt: 'You are a test assistant.',
      model: agent.model,
      ...options,
      toolkit: new Toolkit([pageTool()]),
    });
    restored.loadStateDict(JSON.parse(saved));
    expect(JSON.stringify(restored.stateDict())).toBe(saved);
    expect(compressedIndexes(restored.memory.messages())).toEqual([0]);
    const before = server.requests.length;
    await run(restored, userMsg('One more topic'));
    expect(server.requests.length).toBeGreaterThan(before);
    expect(wireMessages(server, before)[1]).toMatchObject({ role: 'user', name: 'system' });
  });

  it('compresses before the max-iterations summary request too', async () => {
    const endless = (request: ChatRequest): ScriptedTurn =>
      request.tools === undefined
        ? { text: 'Final answer from what I have.' }
        : {
            toolCalls: [
              { name: 'fetch_page', arguments: { topic: `t${request.messages.length}` } },
            ],
          };
    const { server, agent } = await harness(
      Array.from({ length: 20 }, () => endless),
      {
        toolkit: new Toolkit([pageTool()]),
        // 100 tokens a message: the 4 reasoning requests (1, 3, 5, 7 messages) fit, the
        // summary request (9 messages and the instruction) does not.
        context: {
          maxTokens: 800,
          keepRecent: 2,
          strategy: 'drop',
          countTokens: (r) => r.messages.length * 100,
        },
        maxIters: 4,
      },
    );
    const events = await lastValueFrom(
      agent.stream(userMsg('Research everything.')).pipe(toArray()),
    );
    const types = events.map((e) => e.type);
    expect(types.filter((t) => t === 'preCompress')).toHaveLength(1);
    expect(types.indexOf('preCompress')).toBeGreaterThan(types.lastIndexOf('preReasoning'));
    expect(types.indexOf('preCompress')).toBeLessThan(types.indexOf('preSummary'));
    const preSummary = events.find((e) => e.type === 'preSummary') as Extract<
      AgentEvent,
      { type: 'preSummary' }
    >;
    expect(preSummary.messages.length * 100).toBeLessThanOrEqual(800);
    const reply = events[events.length - 1] as Extract<AgentEvent, { type: 'reply' }>;
    expect(reply.msg.metadata['generateReason']).toBe('max_iterations');
    expect(server.requests[server.requests.length - 1]!.body['tools']).toBeUndefined();
  });

  it('cancels the summary request on unsubscribe or interrupt, leaving memory uncompressed and valid', async () => {
    for (const end of ['unsubscribe', 'interrupt'] as const) {
      let tornDown = false;
      let started!: () => void;
      const summaryStarted = new Promise<void>((resolve) => {
        started = resolve;
      });
      const summaryModel: ChatModel = {
        modelName: 'slow-summary',
        // Never answers; like a real model it errors when its request's signal aborts.
        stream: (request) =>
          new Observable<ChatChunk>((subscriber) => {
            started();
            const abort = () => subscriber.error(request.signal?.reason);
            request.signal?.addEventListener('abort', abort);
            return () => {
              tornDown = true;
              request.signal?.removeEventListener('abort', abort);
            };
          }),
      };
      const { agent } = await harness(script(), {
        toolkit: new Toolkit([pageTool()]),
        context: { maxTokens: 1_500, keepRecent: 2, summaryModel },
      });
      let blocked = false;
      for (let turn = 0; turn < 8 && !blocked; turn++) {
        let finish!: (reply: Msg | undefined) => void;
        const finished = new Promise<Msg | undefined>((resolve) => {
          finish = resolve;
        });
        const subscription = agent.call(userMsg(`Topic ${turn}`)).subscribe({
          next: (reply) => finish(reply),
          error: () => finish(undefined),
        });
        blocked = await Promise.race([summaryStarted.then(() => true), finished.then(() => false)]);
        if (!blocked) continue;
        if (end === 'unsubscribe') subscription.unsubscribe();
        else {
          agent.interrupt();
          expect((await finished)?.metadata['generateReason']).toBe('interrupted');
        }
      }
      expect(blocked).toBe(true);
      expect(tornDown).toBe(true);
      const messages = agent.memory.messages();
      expect(compressedIndexes(messages)).toEqual([]);
      expect(pendingToolCalls(messages).calls).toEqual([]);
    }
  });

  it('rejects bad context options with an InvalidArgumentError naming the field', () => {
    const model = {
      modelName: 'm',
      stream: () => {
        throw new Error('unused');
      },
    } as never;
    const make = (context: unknown) => () =>
      new ReActAgent({ name: 'a', sysPrompt: '', model, context: context as never });
    expect(make({ maxTokens: 0 })).toThrow(/context\.maxTokens must be a positive whole number/);
    expect(make({ maxTokens: 1.5 })).toThrow(InvalidArgumentError);
    expect(make({ maxTokens: 100, keepRecent: -1 })).toThrow(/context\.keepRecent/);
    expect(make({ maxTokens: 100, strategy: 'forget' })).toThrow(
      /context\.strategy must be 'summarize' or 'drop'/,
    );
    expect(make({ maxTokens: 100, summaryModel: {} })).toThrow(
      /context\.summaryModel must be a ChatModel/,
    );
    expect(make({ maxTokens: 100, countTokens: 5 })).toThrow(
      /context\.countTokens must be a function/,
    );
    expect(make(null)).toThrow(/context must be an object/);
  });

  it('counts requests with the countTokens it is given, and none without context', async () => {
    let counted = 0;
    const countTokens = () => {
      counted++;
      return 10;
    };
    const { agent } = await harness(['One.', 'Two.'], { context: { maxTokens: 100, countTokens } });
    await run(agent, userMsg('Hi'));
    expect(counted).toBe(1);
    const plain = await harness(['One.']);
    await run(plain.agent, userMsg('Hi'));
    expect(counted).toBe(1);
  });
});
