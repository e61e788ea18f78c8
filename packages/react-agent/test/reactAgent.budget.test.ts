import {
  InMemorySession,
  InvalidArgumentError,
  type JsonObject,
  replyMetadata,
  Toolkit,
  textOf,
  tool,
  userMsg,
} from '@rxagent/core';
import { RecordingSession, ScriptedChatModel, type ScriptedReply } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harness, run, transcript, weatherTool, wireMessages } from './harness.js';

const weather = (id: string, usage = { inputTokens: 100, outputTokens: 50 }) => ({
  toolCalls: [{ id, name: 'get_weather', arguments: { city: 'Paris' } }],
  usage,
});

describe('ReActAgent budget', () => {
  it('stops before the request that would pass maxTokens, with memory the server accepts next call', async () => {
    const { server, agent } = await harness([weather('w1'), weather('w2'), 'Hello again.'], {
      toolkit: new Toolkit([weatherTool()]),
      budget: { maxTokens: 250 },
    });

    const reply = await run(agent, userMsg('Weather in Paris, three times?'));

    // 150 tokens after the first request (under 250): a second one; 300 after it: no third.
    expect(server.requests).toHaveLength(2);
    const meta = replyMetadata(reply);
    expect(meta.generateReason).toBe('budget');
    expect(meta.budget).toEqual({ limit: 'maxTokens', usedTokens: 300, maxTokens: 250 });
    expect(meta.usage?.totalTokens).toBe(300);
    expect(textOf(reply)).toMatch(/budget.*spent.*300 tokens used of maxTokens 250/);
    // Both tool batches ran and their results are stored; the budget reply ends memory.
    expect(transcript(agent.memory.messages())).toEqual([
      'user:Weather in Paris, three times?',
      'assistant:tool_use(get_weather)',
      'tool:tool_result(get_weather)',
      'assistant:tool_use(get_weather)',
      'tool:tool_result(get_weather)',
      `assistant:${textOf(reply)}`,
    ]);

    // The next call has a budget of its own; the strict server accepts the conversation.
    const next = await run(agent, userMsg('And now?'));
    expect(server.requests).toHaveLength(3);
    expect(replyMetadata(next).generateReason).toBe('stop');
    expect(wireMessages(server, 2).at(-2)).toEqual({ role: 'assistant', content: textOf(reply) });
  });

  it('lets a per-call budget replace the agent’s', async () => {
    const { server, agent } = await harness([weather('w1'), 'Sunny in Paris.', 'Hi.'], {
      toolkit: new Toolkit([weatherTool()]),
      budget: { maxTokens: 100 },
    });

    const reply = await agent.reply(userMsg('Weather in Paris?'), {
      budget: { maxTokens: 10_000 },
    });
    expect(replyMetadata(reply).generateReason).toBe('stop');
    expect(server.requests).toHaveLength(2);

    // A per-call budget of 0 tokens: no request at all.
    const none = await agent.reply(userMsg('Hi?'), { budget: { maxTokens: 0 } });
    expect(replyMetadata(none).generateReason).toBe('budget');
    expect(server.requests).toHaveLength(2);
  });

  it('prices requests with pricing and stops at maxCostUsd, reporting costUsd', async () => {
    // $1,000 / $2,000 per million tokens: 100 in + 50 out costs $0.1 + $0.1.
    const pricing = { 'test-model': { inputPerMillion: 1_000, outputPerMillion: 2_000 } };
    const { server, agent } = await harness([weather('w1'), weather('w2'), weather('w3')], {
      toolkit: new Toolkit([weatherTool()]),
      budget: { maxCostUsd: 0.3, pricing },
    });

    const reply = await run(agent, userMsg('Weather?'));

    expect(server.requests).toHaveLength(2);
    const meta = replyMetadata(reply);
    expect(meta.generateReason).toBe('budget');
    expect(meta.costUsd).toBeCloseTo(0.4);
    expect(meta.budget).toMatchObject({ limit: 'maxCostUsd', maxCostUsd: 0.3, usedTokens: 300 });
    expect(textOf(reply)).toMatch(/\$0\.4 spent of maxCostUsd \$0\.3/);
  });

  it('refuses maxCostUsd without a price for the model in use, naming it', async () => {
    const { agent } = await harness(['never']);
    await expect(() =>
      harness(['never'], { budget: { maxCostUsd: 1, pricing: { other: PRICE } } }),
    ).rejects.toThrow(/price for the model "test-model".*priced: "other"/);
    await expect(agent.reply('Hi', { budget: { maxCostUsd: 1 } })).rejects.toThrow(
      /assistant\.call\(\).*budget\.maxCostUsd needs a price for the model "test-model"/,
    );
    expect(agent.memory.messages()).toEqual([]); // refused before the input was stored
  });

  it('checks the shape of the budget, naming the bad field', async () => {
    await expect(() => harness([], { budget: { maxTokens: -1 } })).rejects.toThrow(
      InvalidArgumentError,
    );
    await expect(() => harness([], { budget: { maxTokens: 1.5 } })).rejects.toThrow(
      /budget\.maxTokens must be a whole number/,
    );
    await expect(() => harness([], { budget: { maxToken: 5 } as never })).rejects.toThrow(
      /unknown option "maxToken" \(did you mean "maxTokens"\?\)/,
    );
    const { agent } = await harness(['never']);
    await expect(
      agent.reply('Hi', {
        budget: { pricing: { 'test-model': { inputPerMillion: '3', outputPerMillion: 1 } } },
      } as never),
    ).rejects.toThrow(
      /budget\.pricing\["test-model"\]\.inputPerMillion must be a non-negative number/,
    );
    await expect(agent.reply('Hi', { budget: 5 } as never)).rejects.toThrow(
      /budget must be an object/,
    );
  });
});

const PRICE = { inputPerMillion: 1, outputPerMillion: 1 };

describe('usage through sub-agents (asTool)', () => {
  it('sums two levels of sub-agents into usage, with usageByAgent by name', async () => {
    const leaf = await harness(
      [{ text: 'Leaf facts.', usage: { inputTokens: 10, outputTokens: 5 } }],
      {
        name: 'leaf',
      },
    );
    const mid = await harness(
      [
        {
          toolCalls: [{ id: 'l1', name: 'ask_leaf', arguments: { request: 'facts?' } }],
          usage: { inputTokens: 20, outputTokens: 10 },
        },
        { text: 'Mid summary.', usage: { inputTokens: 30, outputTokens: 10 } },
      ],
      { name: 'mid', toolkit: new Toolkit([leaf.agent.asTool({ name: 'ask_leaf' })]) },
    );
    const top = await harness(
      [
        {
          toolCalls: [{ id: 'm1', name: 'ask_mid', arguments: { request: 'summary?' } }],
          usage: { inputTokens: 100, outputTokens: 20 },
        },
        { text: 'Top answer.', usage: { inputTokens: 100, outputTokens: 30 } },
      ],
      { name: 'top', toolkit: new Toolkit([mid.agent.asTool({ name: 'ask_mid' })]) },
    );

    const reply = await run(top.agent, userMsg('Go'));

    const meta = replyMetadata(reply);
    expect(meta.usage).toEqual({
      inputTokens: 260,
      outputTokens: 75,
      totalTokens: 335,
      cachedInputTokens: 0,
    });
    expect(meta.usageByAgent).toEqual({
      top: { inputTokens: 200, outputTokens: 50, totalTokens: 250, cachedInputTokens: 0 },
      mid: { inputTokens: 50, outputTokens: 20, totalTokens: 70, cachedInputTokens: 0 },
      leaf: { inputTokens: 10, outputTokens: 5, totalTokens: 15, cachedInputTokens: 0 },
    });
  });

  it("gives a sub-agent the parent's remaining budget; its budget stop is the parent's tool result, and the parent stops", async () => {
    const sub = await harness(
      [
        weather('s1', { inputTokens: 200, outputTokens: 100 }),
        weather('s2', { inputTokens: 200, outputTokens: 100 }),
        'never asked',
      ],
      { name: 'sub', toolkit: new Toolkit([weatherTool()]) },
    );
    const parent = await harness(
      [
        {
          toolCalls: [{ id: 'p1', name: 'ask_sub', arguments: { request: 'weather?' } }],
          usage: { inputTokens: 100, outputTokens: 50 },
        },
        'never asked',
      ],
      {
        name: 'parent',
        toolkit: new Toolkit([sub.agent.asTool({ name: 'ask_sub' })]),
        budget: { maxTokens: 500 },
      },
    );

    const reply = await run(parent.agent, userMsg('Weather?'));

    // The sub-agent had 350 tokens left: after 300 it asks again (600 ≥ 350), then stops.
    expect(sub.server.requests).toHaveLength(2);
    const subResult = parent.agent.memory.messages().find((m) => m.role === 'tool')!;
    expect(JSON.stringify(subResult.content)).toMatch(
      /sub stopped.*600 tokens used of maxTokens 350/,
    );
    // The parent, at 750 of 500 tokens, makes no second request.
    expect(parent.server.requests).toHaveLength(1);
    const meta = replyMetadata(reply);
    expect(meta.generateReason).toBe('budget');
    expect(meta.budget).toEqual({ limit: 'maxTokens', usedTokens: 750, maxTokens: 500 });
    expect(meta.usageByAgent).toEqual({
      parent: { inputTokens: 100, outputTokens: 50, totalTokens: 150, cachedInputTokens: 0 },
      sub: { inputTokens: 400, outputTokens: 200, totalTokens: 600, cachedInputTokens: 0 },
    });
    expect(wireMessages(parent.server, 0).at(-1)).toMatchObject({ role: 'user' });
  });
});

describe('a sub-agent with a budget of its own', () => {
  it('keeps its own tighter limit under a parent with more left, and the parent goes on', async () => {
    const sub = await harness([weather('s1'), 'never asked'], {
      name: 'sub',
      toolkit: new Toolkit([weatherTool()]),
      budget: { maxTokens: 100 },
    });
    const parent = await harness(
      [
        { toolCalls: [{ id: 'p1', name: 'ask_sub', arguments: { request: 'weather?' } }] },
        'The helper ran out of budget.',
      ],
      {
        name: 'parent',
        toolkit: new Toolkit([sub.agent.asTool({ name: 'ask_sub' })]),
        budget: { maxTokens: 100_000 },
      },
    );

    const reply = await run(parent.agent, userMsg('Weather?'));

    expect(sub.server.requests).toHaveLength(1);
    expect(parent.server.requests).toHaveLength(2);
    expect(replyMetadata(reply).generateReason).toBe('stop');
    expect(replyMetadata(reply).usageByAgent?.['sub']?.totalTokens).toBe(150);
  });
});

describe('budget of a durable call', () => {
  it('keeps the budget in the checkpoint and counts what the crashed process spent', async () => {
    const lookup = tool({
      name: 'lookup',
      description: 'Looks up.',
      parameters: z.object({}),
      execute: () => 'found',
    });
    const call = (id: string): ScriptedReply => ({
      toolCalls: [{ id, name: 'lookup', arguments: {} }],
      usage: { inputTokens: 100, outputTokens: 50 },
    });
    const make = (session: InMemorySession, script: ScriptedReply[]) => {
      const model = new ScriptedChatModel(script);
      const agent = new ReActAgent({
        name: 'shop',
        sysPrompt: 'You run a shop.',
        model,
        toolkit: new Toolkit([lookup]),
        durable: { session, key: 'run' },
      });
      return { agent, model };
    };
    const session = new RecordingSession();
    const { saves } = session;
    await make(session, [call('l1'), call('l2'), 'unused']).agent.reply('Look twice.', {
      budget: { maxTokens: 250 },
    });
    // The process "dies" once the first batch is done (150 tokens spent).
    const index = saves.findIndex((save) => {
      const progress = (save['call'] as JsonObject)['progress'] as JsonObject | undefined;
      return (progress?.['next'] as JsonObject | undefined)?.['kind'] === 'reason';
    });
    const died = saves[index]!;
    expect((died['call'] as JsonObject)['options']).toEqual({ budget: { maxTokens: 250 } });
    const restarted = new InMemorySession();
    await session.restoreInto(restarted, index);

    const { agent, model } = make(restarted, [call('l2'), 'never asked']);
    const reply = await lastValueFrom(agent.recover());

    // 150 before the crash + 150 after: the recovered call stops before a second request.
    expect(model.requests).toHaveLength(1);
    expect(replyMetadata(reply).generateReason).toBe('budget');
    expect(replyMetadata(reply).usage?.totalTokens).toBe(300);
  });
});
