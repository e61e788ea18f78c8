import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors.js';
import { memoryStoreConformance } from '../testing/conformance/memoryStoreConformance.js';
import type { Embedder } from './embedder.js';
import { InMemoryStore } from './inMemoryStore.js';

memoryStoreConformance('InMemoryStore', (options) => new InMemoryStore(options));

describe('InMemoryStore', () => {
  it('rejects an unknown option and an embedder that returns the wrong vectors', async () => {
    expect(() => new InMemoryStore({ embeder: 1 } as never)).toThrow(/embeder/);
    const broken: Embedder = { name: 'broken', dimensions: 3, embed: async () => [[1, 2]] };
    const store = new InMemoryStore({ embedder: broken });
    await expect(store.put(['u'], 'k', { text: 'x' })).rejects.toThrow(/broken.*3 finite numbers/);
    expect(await store.get(['u'], 'k')).toBeUndefined();
  });

  it('aborts a search whose signal is aborted', async () => {
    const store = new InMemoryStore();
    await expect(store.search(['u'], { signal: AbortSignal.abort() })).rejects.toThrow();
    await expect(store.search('u' as never)).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});

describe('InMemoryStore search index reuse', () => {
  it('reuses a namespace index only while nothing under it changed', async () => {
    const store = new InMemoryStore();
    await store.put(['u', 'a'], 'k1', { text: 'green tea' });
    expect((await store.search(['u'], { query: 'tea' })).map((i) => i.key)).toEqual(['k1']);
    await store.put(['u', 'a', 'deep'], 'k2', { text: 'black tea tea' });
    expect((await store.search(['u'], { query: 'tea' })).map((i) => i.key)).toEqual(['k2', 'k1']);
    await store.put(['u', 'a'], 'k1', { text: 'green coffee' });
    expect((await store.search(['u'], { query: 'tea' })).map((i) => i.key)).toEqual(['k2']);
    expect((await store.search(['u'], { query: 'coffee' }))[0]?.value).toEqual({
      text: 'green coffee',
    });
    await store.delete(['u', 'a', 'deep'], 'k2');
    expect(await store.search(['u'], { query: 'tea' })).toEqual([]);
    // A write elsewhere leaves the namespace's results as they were.
    await store.put(['v'], 'k3', { text: 'tea' });
    expect((await store.search(['u'], { query: 'coffee' })).map((i) => i.key)).toEqual(['k1']);
    expect((await store.search([], { query: 'tea' })).map((i) => i.key)).toEqual(['k3']);
  });
});
