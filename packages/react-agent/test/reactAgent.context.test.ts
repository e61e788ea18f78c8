import {
  type AgentEvent,
  type ChatRequest,
  type Msg,
  Toolkit,
  textOf,
  userMsg,
} from '@rxagent/core';
import type { ScriptedTurn } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { harness, run, wireMessages } from './harness.js';
import {
  compressedIndexes,
  isSummaryRequest,
  pageTool,
  researchChat,
  script,
} from './researchChat.js';

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

  it('never splits a tool call from its result and keeps the question and keepRecent messages after it', async () => {
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
      // The call's question is kept, with every message after it (fewer than keepRecent here).
      const question = kept.findLastIndex((m) => m.role === 'user' && m.name === 'user');
      expect(textOf(kept[question]!)).toMatch(/^Topic \d$/);
      expect(kept.length - question - 1).toBeLessThan(5);
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
      cachedInputTokens: 10, // the simulated cache hit, capped at the scripted input of one request
    });
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
});
