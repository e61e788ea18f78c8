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
