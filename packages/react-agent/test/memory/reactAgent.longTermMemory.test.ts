import {
  type AgentEvent,
  type HookEvent,
  InMemoryStore,
  type JsonObject,
  Toolkit,
  textOf,
  tool,
} from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harness } from '../harness.js';
import { CountingStore, userMemory } from './memoryWorld.js';

const alice = { userId: 'alice' };
const bob = { userId: 'bob' };
const clock = tool({
  name: 'clock',
  description: 'Tells the time.',
  parameters: z.object({}),
  execute: () => '12:00',
});

/** Each request's messages, as the bytes the server received, one string per message. */
function wireMessages(body: JsonObject): string[] {
  return (body['messages'] as JsonObject[]).map((message) => JSON.stringify(message));
}

describe('ReActAgent longTermMemory: static recall', () => {
  it('reads once (one round trip) before the first request and never between steps', async () => {
    const store = new CountingStore();
    const memory = userMemory(store, {
      workingMemory: { schema: z.object({ name: z.string() }).partial() },
    });
    await memory.updateWorkingMemory(alice, { name: 'Alice' });
    await memory.save(alice, 'Alice drinks green tea.');
    const { agent, server } = await harness(
      [
        { toolCalls: [{ name: 'clock', arguments: {} }] },
        { toolCalls: [{ name: 'clock', arguments: {} }] },
        'Tea time, Alice.',
      ],
      { longTermMemory: memory, longTermMemoryMode: 'static', toolkit: new Toolkit([clock]) },
    );
    store.reset();
    const reply = await agent.reply('What should I drink with my tea?', { callContext: alice });
    expect(textOf(reply)).toBe('Tea time, Alice.');
    expect(store.roundTrips).toBe(1);
    expect(store.ops.sort()).toEqual(['get', 'search']);
    expect(server.requests).toHaveLength(3);
    // The block reached the first request, and stays in every later one.
    const first = wireMessages(server.requests[0]!.body).join('\n');
    expect(first).toContain('Alice drinks green tea.');
    expect(first).toContain('{\\"name\\":\\"Alice\\"}');
    const tools = (server.requests[0]!.body['tools'] as JsonObject[] | undefined) ?? [];
    expect(tools.map((t) => (t['function'] as JsonObject)['name'])).toEqual(['clock']);
  });

  it('keeps every byte before the new messages identical across the requests of a call and of two calls', async () => {
    const memory = userMemory(new InMemoryStore(), {
      workingMemory: { schema: z.record(z.string(), z.string()) },
    });
    await memory.updateWorkingMemory(alice, { plan: 'gold', city: 'Lyon' });
    await memory.save(alice, 'Alice ordered a blue kettle.');
    await memory.save(alice, 'Alice returns the kettle on Friday.');
    const { agent, server } = await harness(
      [
        { toolCalls: [{ name: 'clock', arguments: {} }] },
        'It is noon.',
        { toolCalls: [{ name: 'clock', arguments: {} }] },
        'Friday it is.',
      ],
      { longTermMemory: memory, longTermMemoryMode: 'both', toolkit: new Toolkit([clock]) },
    );
    await agent.reply('When does my kettle arrive?', { callContext: alice });
    await agent.reply('When do I return the kettle?', { callContext: alice });
    const requests = server.requests.map((r) => ({
      messages: wireMessages(r.body),
      tools: JSON.stringify(r.body['tools']),
    }));
    expect(requests).toHaveLength(4);
    for (let i = 1; i < requests.length; i++) {
      const before = requests[i - 1]!;
      const after = requests[i]!;
      expect(after.tools).toBe(before.tools);
      expect(after.messages.slice(0, before.messages.length)).toEqual(before.messages);
    }
    // The system prompt is the first message and never moved; the blocks are in the history.
    expect(requests[3]!.messages[0]).toBe(requests[0]!.messages[0]);
    expect(requests[3]!.messages.filter((m) => m.includes('long_term_memory'))).toHaveLength(2);
  });

  it('reports a memoryRecall event with keys, scores and the time it took', async () => {
    const memory = userMemory(new InMemoryStore());
    const key = await memory.save(alice, 'Alice likes jazz.');
    const { agent } = await harness(['Jazz!'], { longTermMemory: memory });
    const events = await lastValueFrom(
      agent.stream('Any jazz tonight?', { callContext: alice }).pipe(toArray()),
    );
    const recall = events.find(
      (e): e is Extract<AgentEvent, { type: 'memoryRecall' }> => e.type === 'memoryRecall',
    );
    expect(recall?.items.map((i) => i.key)).toEqual([key]);
    expect(recall?.items[0]?.score).toBeGreaterThan(0);
    expect(recall?.ms).toBeGreaterThanOrEqual(0);
    expect(recall?.namespace).toEqual(['users', 'alice']);
    const types = events.map((e) => e.type);
    expect(types.indexOf('memoryRecall')).toBeLessThan(types.indexOf('preReasoning'));
  });

  it('never shows one user the memory of another', async () => {
    const memory = userMemory(new InMemoryStore());
    await memory.save(alice, 'Alice secret: the vault code is 4711.');
    await memory.save(bob, 'Bob likes the vault tour.');
    const { agent, server } = await harness(['ok', 'ok'], { longTermMemory: memory });
    await agent.reply('Tell me about the vault code', { callContext: bob });
    const sent = JSON.stringify(server.requests[0]!.body);
    expect(sent).toContain('Bob likes the vault tour.');
    expect(sent).not.toContain('4711');
  });

  it('sends no block and reads nothing in the agent mode', async () => {
    const store = new CountingStore();
    const memory = userMemory(store);
    await memory.save(alice, 'Alice likes jazz.');
    store.reset();
    const { agent, server } = await harness(['ok'], {
      longTermMemory: memory,
      longTermMemoryMode: 'agent',
    });
    await agent.reply('jazz?', { callContext: alice });
    expect(store.roundTrips).toBe(0);
    expect(JSON.stringify(server.requests[0]!.body)).not.toContain('Alice likes jazz');
    const names = (server.requests[0]!.body['tools'] as JsonObject[]).map(
      (t) => (t['function'] as JsonObject)['name'],
    );
    expect(names).toEqual(['memory_search', 'memory_save', 'memory_forget']);
  });
});

describe('ReActAgent longTermMemory: agent mode tools', () => {
  it('saves, searches, updates working memory with a merge patch and forgets', async () => {
    const memory = userMemory(new InMemoryStore(), {
      workingMemory: {
        schema: z.object({ name: z.string(), plan: z.string() }).partial().strict(),
      },
    });
    await memory.updateWorkingMemory(alice, { name: 'Alice' });
    const { agent, server } = await harness(
      [
        {
          toolCalls: [
            { name: 'memory_save', arguments: { text: 'Alice owns a red bike.', key: 'bike' } },
            { name: 'memory_update', arguments: { patch: { plan: 'gold' } } },
          ],
        },
        {
          toolCalls: [
            { name: 'memory_search', arguments: { query: 'bike' } },
            { name: 'memory_update', arguments: { patch: { age: 3 } } },
          ],
        },
        { toolCalls: [{ name: 'memory_forget', arguments: { key: 'bike' } }] },
        'Done.',
      ],
      { longTermMemory: memory, longTermMemoryMode: 'agent' },
    );
    await agent.reply('Remember my bike and my plan', { callContext: alice });
    expect(await memory.workingMemory(alice)).toEqual({ name: 'Alice', plan: 'gold' });
    const third = JSON.stringify(server.requests[2]!.body['messages']);
    expect(third).toContain('[bike] Alice owns a red bike.');
    expect(third).toMatch(/does not fit its schema/);
    expect((await memory.recall(alice, 'bike')).facts).toEqual([]);
  });

  it('reads working memory of a user through longTermMemory.workingMemory(callContext)', async () => {
    const memory = userMemory(new InMemoryStore(), {
      workingMemory: { schema: z.record(z.string(), z.number()) },
    });
    await memory.updateWorkingMemory(bob, { visits: 2 });
    expect(await memory.workingMemory(bob)).toEqual({ visits: 2 });
    expect(await memory.workingMemory(alice)).toEqual({});
  });
});

describe('ReActAgent longTermMemory: observer', () => {
  function observer(facts: string[][]) {
    return new ScriptedChatModel(
      facts.map((list) => ({
        toolCalls: [{ name: 'save_facts', arguments: { facts: list } }],
        usage: { inputTokens: 50, outputTokens: 10 },
      })),
      { modelName: 'observer-model' },
    );
  }

  it('turns the exchange into facts written after the reply is emitted; its usage counts in the call', async () => {
    const store = new CountingStore();
    const model = observer([['Alice is moving to Berlin in May.']]);
    const memory = userMemory(store, { observer: { model } });
    const { agent } = await harness(['Good luck with the move!'], {
      longTermMemory: memory,
      longTermMemoryMode: 'static',
    });
    const order: string[] = [];
    const events: HookEvent[] = [];
    agent.addHook({
      events: ['memoryWrite'],
      onEvent: (event) => {
        events.push(event);
      },
    });
    const originalPut = store.put;
    store.put = (...args) => {
      order.push('put');
      return originalPut(...args);
    };
    const reply = await new Promise<JsonObject>((resolve, reject) => {
      let last: JsonObject | undefined;
      agent.call('I move to Berlin in May', { callContext: alice }).subscribe({
        next: (msg) => {
          order.push('reply');
          last = msg.metadata;
        },
        complete: () => resolve(last!),
        error: reject,
      });
    });
    await memory.settled();
    expect(order).toEqual(['reply', 'put']);
    expect((await memory.recall(alice, 'Berlin')).facts.map((f) => f.value['text'])).toEqual([
      'Alice is moving to Berlin in May.',
    ]);
    // The observer was asked with its one tool, forced, and saw the exchange.
    const asked = model.requests[0]!;
    expect(asked.tools?.map((t) => t.function.name)).toEqual(['save_facts']);
    expect(asked.toolChoice).toEqual({ name: 'save_facts' });
    expect(JSON.stringify(asked.messages)).toContain('I move to Berlin in May');
    // Its usage is in the call's (the agent's model's plus the observer's 60).
    const usage = reply['usage'] as JsonObject;
    const byAgentModel = (usage['totalTokens'] as number) - 60;
    expect(byAgentModel).toBeGreaterThan(0);
    const written = events.filter((e) => e.type === 'memoryWrite');
    expect(written.map((e) => e.type === 'memoryWrite' && e.phase)).toEqual([
      'observed',
      'written',
    ]);
    const observed = written[0] as Extract<HookEvent, { type: 'memoryWrite' }>;
    expect(observed.usage).toMatchObject({ inputTokens: 50, outputTokens: 10 });
    expect((written[1] as Extract<HookEvent, { type: 'memoryWrite' }>).keys).toHaveLength(1);
    expect(agent.stateDict()['longTermMemory']).toEqual({ pending: [] });
  });

  it('is not asked once the budget is spent', async () => {
    const model = observer([['never']]);
    const memory = userMemory(new InMemoryStore(), { observer: { model } });
    const { agent } = await harness(['A long answer.'], {
      longTermMemory: memory,
      budget: { maxTokens: 1 },
    });
    await agent.reply('hello', { callContext: alice });
    expect(model.requests).toHaveLength(0);
  });

  it('keeps facts pending in state when the write fails, and writes them when that state is loaded', async () => {
    const store = new CountingStore();
    const memory = userMemory(store, { observer: { model: observer([['Alice has two cats.']]) } });
    const { agent } = await harness(['Cute!'], {
      longTermMemory: memory,
      longTermMemoryMode: 'static',
    });
    const errors: string[] = [];
    agent.addHook({
      events: ['memoryWrite'],
      onEvent: (e) => {
        if (e.type === 'memoryWrite' && e.error) errors.push(e.error);
      },
    });
    const put = store.put;
    store.put = () => Promise.reject(new Error('store down'));
    await agent.reply('I have two cats', { callContext: alice });
    await memory.settled();
    expect(errors).toEqual(['store down']);
    const saved = agent.stateDict();
    expect(saved['longTermMemory']).toEqual({
      pending: [{ namespace: ['users', 'alice'], facts: ['Alice has two cats.'] }],
    });
    store.put = put;
    // What recover() does with a checkpoint: load the state; its pending facts are written.
    agent.loadStateDict(saved);
    await memory.settled();
    expect((await memory.recall(alice, 'cats')).facts.map((f) => f.value['text'])).toEqual([
      'Alice has two cats.',
    ]);
    expect(agent.stateDict()['longTermMemory']).toEqual({ pending: [] });
  });
});
