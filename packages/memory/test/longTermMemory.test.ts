// SqliteStore by a relative import: this package does not depend on @rxagent/sqlite (whose
// tests depend on it), so the workspace has no cycle.
import {
  InMemoryStore,
  type JsonObject,
  type MemoryStore,
  SessionConflictError,
} from '@rxagent/core';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SqliteStore } from '../../sqlite/src/index.js';
import { HashEmbedder } from '../src/hashEmbedder.js';
import { LongTermMemory } from '../src/longTermMemory.js';
import { mergePatch } from '../src/mergePatch.js';
import { MAX_PATCH_ATTEMPTS } from '../src/workingMemory.js';
import { noiseFacts, rng } from './fixtures.js';

const byUser = (ctx: JsonObject | undefined) => ['users', String(ctx?.['userId'])];
const alice = { userId: 'alice' };
const bob = { userId: 'bob' };
const closing: SqliteStore[] = [];
afterAll(() => {
  for (const store of closing) store.close();
});

function sqlite(): SqliteStore {
  const store = new SqliteStore({ path: ':memory:' });
  closing.push(store);
  return store;
}

describe('LongTermMemory recall', () => {
  for (const [name, make] of [
    ['InMemoryStore', () => new InMemoryStore()],
    ['SqliteStore', sqlite],
  ] as const) {
    it(`finds the right fact among 1,000 by keyword (${name})`, async () => {
      const memory = new LongTermMemory({ store: make(), namespace: byUser });
      const noise = noiseFacts(999);
      const at = 613;
      const facts = [...noise.slice(0, at), 'Alice is allergic to peanuts.', ...noise.slice(at)];
      for (const fact of facts) await memory.save(alice, fact);
      const recalled = await memory.recall(alice, 'Which foods is she allergic to? peanuts?');
      expect(recalled.facts[0]?.value['text']).toBe('Alice is allergic to peanuts.');
      expect(recalled.facts.length).toBeLessThanOrEqual(5);
    });
  }

  it('finds a paraphrase with an embedder (HashEmbedder), which keywords alone miss', async () => {
    const facts = [...noiseFacts(999), 'Alice is allergic to peanuts.'];
    const query = 'nut allergies';
    const keywordOnly = new LongTermMemory({ store: new InMemoryStore(), namespace: byUser });
    const embedded = new LongTermMemory({
      store: new InMemoryStore(),
      namespace: byUser,
      recall: { embedder: new HashEmbedder() },
    });
    const storeEmbedded = new LongTermMemory({
      store: new InMemoryStore({ embedder: new HashEmbedder() }),
      namespace: byUser,
    });
    for (const memory of [keywordOnly, embedded, storeEmbedded])
      for (const fact of facts) await memory.save(alice, fact);
    const texts = async (memory: LongTermMemory) =>
      (await memory.recall(alice, query)).facts.map((item) => item.value['text']);
    expect(await texts(keywordOnly)).not.toContain('Alice is allergic to peanuts.');
    expect((await texts(embedded))[0]).toBe('Alice is allergic to peanuts.');
    expect((await texts(storeEmbedded))[0]).toBe('Alice is allergic to peanuts.');
  });

  it('reads working memory and recall in one round trip (sent together)', async () => {
    const inner = new InMemoryStore();
    let inFlight = 0;
    let maxInFlight = 0;
    const calls: string[] = [];
    const counting = new Proxy(inner, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          calls.push(String(prop));
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          await new Promise((resolve) => setTimeout(resolve, 5));
          try {
            return await value.apply(target, args);
          } finally {
            inFlight--;
          }
        };
      },
    }) as MemoryStore;
    const memory = new LongTermMemory({
      store: counting,
      namespace: byUser,
      workingMemory: { schema: z.object({ name: z.string() }).partial() },
    });
    await memory.updateWorkingMemory(alice, { name: 'Alice' });
    await memory.save(alice, 'Alice likes tea.');
    calls.length = 0;
    maxInFlight = 0;
    const recalled = await memory.recall(alice, 'tea');
    expect(calls.sort()).toEqual(['get', 'search']);
    expect(maxInFlight).toBe(2);
    expect(recalled.workingMemory.value).toEqual({ name: 'Alice' });
    expect(recalled.facts[0]?.value['text']).toBe('Alice likes tea.');
  });
});

describe('LongTermMemory namespaces', () => {
  it('keeps users apart: one never sees, searches, updates or forgets the other', async () => {
    const memory = new LongTermMemory({
      store: new InMemoryStore(),
      namespace: byUser,
      workingMemory: { schema: z.record(z.string(), z.string()) },
    });
    await memory.save(alice, 'Alice lives in Lisbon.');
    await memory.save(bob, 'Bob lives in Oslo.');
    await memory.updateWorkingMemory(alice, { city: 'Lisbon' });
    expect(
      (await memory.recall(bob, 'lives Lisbon Oslo')).facts.map((f) => f.value['text']),
    ).toEqual(['Bob lives in Oslo.']);
    expect(await memory.workingMemory(bob)).toEqual({});
    expect(await memory.forgetAll(bob)).toBe(1);
    expect((await memory.recall(alice, 'Lisbon')).facts).toHaveLength(1);
    expect(await memory.workingMemory(alice)).toEqual({ city: 'Lisbon' });
  });

  it('keeps a user id with a slash apart from a deeper namespace', async () => {
    const memory = new LongTermMemory({ store: new InMemoryStore(), namespace: byUser });
    await memory.save({ userId: 'a/b' }, 'secret of a/b');
    expect((await memory.recall({ userId: 'a' }, 'secret')).facts).toEqual([]);
  });

  it('rejects a namespace function that returns no segments', async () => {
    const memory = new LongTermMemory({ store: new InMemoryStore(), namespace: () => [] });
    await expect(memory.save(alice, 'x')).rejects.toThrow(/non-empty array/);
    expect(
      () =>
        new LongTermMemory({ store: new InMemoryStore(), namespace: byUser, recal: {} } as never),
    ).toThrow(/recal/);
  });

  it('forgets everything of a user (privacy)', async () => {
    const memory = new LongTermMemory({
      store: new InMemoryStore(),
      namespace: byUser,
      workingMemory: { schema: z.record(z.string(), z.string()) },
    });
    for (const fact of noiseFacts(700)) await memory.save(alice, fact);
    await memory.updateWorkingMemory(alice, { a: 'b' });
    expect(await memory.forgetAll(alice)).toBe(701);
    expect(await memory.workingMemory(alice)).toEqual({});
    expect((await memory.recall(alice, 'printer')).facts).toEqual([]);
  });
});

const fields = Array.from({ length: 40 }, (_, i) => `f${i}`);

/** A random merge patch over a few fields: nested sets, scalar sets and deletions. */
function fuzzPatch(random: () => number, id: number): JsonObject {
  const patch: JsonObject = { [`last${id % 7}`]: id };
  const count = 1 + Math.floor(random() * 3);
  for (let i = 0; i < count; i++) {
    const field = fields[Math.floor(random() * fields.length)]!;
    const roll = random();
    patch[field] = roll < 0.15 ? null : roll < 0.5 ? { [`k${Math.floor(random() * 5)}`]: id } : id;
  }
  return patch;
}

describe('LongTermMemory working memory', () => {
  for (const [name, make] of [
    ['InMemoryStore', () => new InMemoryStore()],
    ['SqliteStore', sqlite],
  ] as const) {
    it(`keeps every one of 10,000 fuzzed concurrent patches (${name})`, {
      timeout: 120_000,
    }, async () => {
      const store = make();
      const schema = z.record(z.string(), z.unknown());
      // Many threads of one user: several agents, each with its own LongTermMemory, one store.
      const memories = Array.from(
        { length: 4 },
        () => new LongTermMemory({ store, namespace: byUser, workingMemory: { schema } }),
      );
      const random = rng(42);
      const patches = Array.from({ length: 10_000 }, (_, id) => fuzzPatch(random, id));
      const written = await Promise.all(
        patches.map((patch, id) => memories[id % 4]!.patchIn(['users', 'alice'], patch)),
      );
      // Replaying the patches in the order they were written gives exactly what is stored:
      // no patch was lost or applied to a stale value.
      const order = written
        .map((w, id) => ({ version: w.version, id }))
        .sort((a, b) => a.version - b.version);
      expect(new Set(order.map((o) => o.version)).size).toBe(10_000);
      let replay: JsonObject = {};
      for (const { id } of order) replay = mergePatch(replay, patches[id]!) as JsonObject;
      expect(await memories[0]!.workingMemory(alice)).toEqual(replay);
      for (let i = 0; i < 7; i++) expect(replay[`last${i}`]).toBeTypeOf('number');
    });
  }

  it('re-reads and re-applies on a conflict with another process, up to a bound', async () => {
    const inner = new InMemoryStore();
    let sneakIns = 2;
    // Another process writes between this one's read and its write, `sneakIns` times.
    const racing: MemoryStore = {
      get: (ns, key) => inner.get(ns, key),
      search: (ns, o) => inner.search(ns, o),
      delete: (ns, key) => inner.delete(ns, key),
      list: (ns) => inner.list(ns),
      async put(ns, key, value, options) {
        if (options?.expectedVersion !== undefined && sneakIns > 0) {
          sneakIns--;
          const current = await inner.get(ns, key);
          await inner.put(ns, key, { ...current?.value, [`other${sneakIns}`]: true });
        }
        return inner.put(ns, key, value, options);
      },
    };
    const memory = new LongTermMemory({
      store: racing,
      namespace: byUser,
      workingMemory: { schema: z.record(z.string(), z.unknown()) },
    });
    await memory.updateWorkingMemory(alice, { mine: 1 });
    expect(await memory.workingMemory(alice)).toEqual({ mine: 1, other1: true, other0: true });
    sneakIns = MAX_PATCH_ATTEMPTS;
    await expect(memory.updateWorkingMemory(alice, { mine: 2 })).rejects.toBeInstanceOf(
      SessionConflictError,
    );
    expect((await memory.workingMemory(alice))['mine']).toBe(1);
  });

  it('refuses a patch the schema rejects, changing nothing', async () => {
    const memory = new LongTermMemory({
      store: new InMemoryStore(),
      namespace: byUser,
      workingMemory: { schema: z.object({ age: z.number().int() }).partial().strict() },
    });
    await memory.updateWorkingMemory(alice, { age: 40 });
    await expect(memory.updateWorkingMemory(alice, { age: 'old' })).rejects.toThrow(/age/);
    await expect(memory.updateWorkingMemory(alice, { colour: 'red' })).rejects.toThrow(/schema/);
    expect(await memory.workingMemory(alice)).toEqual({ age: 40 });
  });
});

describe('LongTermMemory working memory across connections', () => {
  it('keeps every patch of two processes writing one SQLite file at once', {
    timeout: 120_000,
  }, async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'ltm-two-'));
    // Two connections to one file: two stores, so two queues, as two processes would have.
    const stores = [0, 1].map(() => new SqliteStore({ path: join(dir, 'memory.db') }));
    try {
      const schema = z.record(z.string(), z.unknown());
      let conflicts = 0;
      const counted = stores.map(
        (store): MemoryStore => ({
          get: (ns, key) => store.get(ns, key),
          search: (ns, o) => store.search(ns, o),
          delete: (ns, key) => store.delete(ns, key),
          list: (ns) => store.list(ns),
          put: (ns, key, value, options) =>
            store.put(ns, key, value, options).catch((error: unknown) => {
              if (error instanceof SessionConflictError) conflicts++;
              throw error;
            }),
        }),
      );
      const memories = counted.map(
        (store) => new LongTermMemory({ store, namespace: byUser, workingMemory: { schema } }),
      );
      const random = rng(7);
      const patches = Array.from({ length: 400 }, (_, id) => fuzzPatch(random, id));
      const written = await Promise.all(
        patches.map((patch, id) => memories[id % 2]!.patchIn(['users', 'alice'], patch)),
      );
      const order = written
        .map((w, id) => ({ version: w.version, id }))
        .sort((a, b) => a.version - b.version);
      expect(new Set(order.map((o) => o.version)).size).toBe(400);
      let replay: JsonObject = {};
      for (const { id } of order) replay = mergePatch(replay, patches[id]!) as JsonObject;
      expect(await memories[1]!.workingMemory(alice)).toEqual(replay);
      expect(conflicts).toBeGreaterThan(0); // the two really raced, and re-applied
    } finally {
      for (const store of stores) store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
