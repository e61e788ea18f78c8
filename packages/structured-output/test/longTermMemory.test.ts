import { InMemoryStore, type JsonObject } from '@rxagent/core';
import { LongTermMemory } from '@rxagent/memory';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { body, harness, respond } from './harness.js';

describe('StructuredOutputAgent with longTermMemory', () => {
  it('recalls before its first request and answers in its schema', async () => {
    const memory = new LongTermMemory({
      store: new InMemoryStore(),
      namespace: (ctx?: JsonObject) => ['users', String(ctx?.['userId'])],
    });
    await memory.save({ userId: 'ada' }, 'Ada was born in 1815.');
    const { agent, server } = await harness([respond({ response: { name: 'Ada', born: 1815 } })], {
      longTermMemory: memory,
    });
    const Person = z.object({ name: z.string(), born: z.number() });
    const person = await lastValueFrom(
      agent.callStructured('Who am I, and when was I born?', Person, {
        callContext: { userId: 'ada' },
      }),
    );
    expect(person).toEqual({ name: 'Ada', born: 1815 });
    expect(JSON.stringify(body(server, 0)['messages'])).toContain('Ada was born in 1815.');
    const tools = (body(server, 0)['tools'] as JsonObject[]).map(
      (t) => (t['function'] as JsonObject)['name'],
    );
    expect(tools).toContain('memory_search');
    expect(tools).toContain('generate_response');
  });
});
