import { InvalidArgumentError, SessionConflictError } from '../../errors.js';
import type { JsonObject } from '../../json.js';
import type { Embedder } from '../../memory/embedder.js';
import type { MemoryStore, Namespace } from '../../memory/memoryStore.js';
import { ConceptEmbedder } from './conceptEmbedder.js';
import { vitestApi } from './vitestApi.js';

/** What `memoryStoreConformance` passes to `makeStore`. */
export interface MemoryStoreConformanceOptions {
  /** The embedder the store must rank with (keyword and vector scores fused), when given. */
  readonly embedder?: Embedder;
}

/** What `makeStore` may return: a store, and optionally how to release it. */
type Closable = MemoryStore & { close?: () => unknown };

const keysOf = (items: readonly { key: string }[]) => items.map((item) => item.key);

/**
 * Defines the vitest suite every `MemoryStore` passes, as `describe(name, …)`: put, get,
 * versions and compare-and-set (`expectedVersion`: a stale one rejects with
 * `SessionConflictError` and changes nothing; of concurrent writers exactly one wins),
 * namespaces kept apart whatever their segments contain, `list` (directly in a namespace,
 * sorted by key), `search` over a namespace and everything under it (BM25: items holding
 * any query word match, rarer words and shorter items rank higher; stopwords such as "the"
 * or "what" are no query words; punctuation and operator words never throw; `filter` equality on top-level fields; no query lists newest first;
 * `limit`, 10 by default), `delete`; and with an embedder, keyword and vector rankings fused
 * and an unchanged text never embedded twice.
 *
 * `makeStore(options)` is called once per test and must return an empty store built with
 * `options.embedder` when given; a `close()` it has is called after the test.
 *
 * @example
 * ```ts
 * import { InMemoryStore } from '@rxagent/core';
 * import { memoryStoreConformance } from '@rxagent/core/testing';
 *
 * memoryStoreConformance('InMemoryStore', (options) => new InMemoryStore(options));
 * ```
 */
export function memoryStoreConformance(
  name: string,
  makeStore: (options: MemoryStoreConformanceOptions) => MemoryStore | Promise<MemoryStore>,
  options: { readonly timeoutMs?: number } = {},
): void {
  const { describe, it, expect, afterEach } = vitestApi('memoryStoreConformance');
  const timeout = options.timeoutMs ?? 60_000;
  const opened: Closable[] = [];
  const open = async (storeOptions: MemoryStoreConformanceOptions = {}): Promise<Closable> => {
    const store = (await makeStore(storeOptions)) as Closable;
    opened.push(store);
    return store;
  };

  describe(`${name} (memory store conformance)`, () => {
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close?.();
    });

    it('puts and gets items with versions and times', { timeout }, async () => {
      const store = await open();
      const before = Date.now();
      expect(await store.put(['u'], 'k', { fact: 'one', n: 1 })).toEqual({ version: 1 });
      const item = await store.get(['u'], 'k');
      expect(item).toMatchObject({ key: 'k', value: { fact: 'one', n: 1 }, version: 1 });
      expect([...(item?.namespace ?? [])]).toEqual(['u']);
      const at = Date.parse(item?.updatedAt ?? '');
      expect(at).toBeGreaterThanOrEqual(before - 1000);
      expect(at).toBeLessThanOrEqual(Date.now() + 1000);
      expect(await store.put(['u'], 'k', { fact: 'two' })).toEqual({ version: 2 });
      expect(await store.get(['u'], 'k')).toMatchObject({ value: { fact: 'two' }, version: 2 });
      expect(await store.get(['u'], 'missing')).toBeUndefined();
      expect(await store.get(['other'], 'k')).toBeUndefined();
      // Values are copies both ways.
      const got = await store.get(['u'], 'k');
      (got?.value as JsonObject)['fact'] = 'changed';
      expect((await store.get(['u'], 'k'))?.value).toEqual({ fact: 'two' });
      const value: JsonObject = { fact: 'mine', list: [1] };
      await store.put(['u'], 'copy', value);
      (value['list'] as number[]).push(2);
      expect((await store.get(['u'], 'copy'))?.value).toEqual({ fact: 'mine', list: [1] });
    });

    it('keeps a value byte for byte (key order, unicode, numbers)', { timeout }, async () => {
      const store = await open();
      const value: JsonObject = {
        z: 1,
        a: [0.1, 1e21, -5],
        s: '😀 "q" \\ \u0000 東京',
        n: null,
        o: { y: true, b: false },
      };
      await store.put(['u'], 'k', value);
      expect(JSON.stringify((await store.get(['u'], 'k'))?.value)).toBe(JSON.stringify(value));
    });

    it('compare-and-sets with expectedVersion, a stale one changing nothing', {
      timeout,
    }, async () => {
      const store = await open();
      await store.put(['u'], 'k', { fact: 'first cat' }, { expectedVersion: 0 });
      await expect(
        store.put(['u'], 'k', { fact: 'again' }, { expectedVersion: 0 }),
      ).rejects.toBeInstanceOf(SessionConflictError);
      await expect(
        store.put(['u'], 'k', { fact: 'stale dog' }, { expectedVersion: 2 }),
      ).rejects.toBeInstanceOf(SessionConflictError);
      await expect(
        store.put(['u'], 'n', { fact: 'new' }, { expectedVersion: 1 }),
      ).rejects.toBeInstanceOf(SessionConflictError);
      expect(await store.get(['u'], 'k')).toMatchObject({
        value: { fact: 'first cat' },
        version: 1,
      });
      expect(await store.get(['u'], 'n')).toBeUndefined();
      expect(keysOf(await store.search(['u'], { query: 'dog' }))).toEqual([]);
      expect(await store.put(['u'], 'k', { fact: 'second' }, { expectedVersion: 1 })).toEqual({
        version: 2,
      });
      // Concurrent writers of one version: exactly one wins.
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, writer) =>
          store.put(['u'], 'k', { writer }, { expectedVersion: 2 }),
        ),
      );
      const winners = results.flatMap((r, writer) => (r.status === 'fulfilled' ? [writer] : []));
      expect(winners).toHaveLength(1);
      for (const r of results)
        if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(SessionConflictError);
      expect(await store.get(['u'], 'k')).toMatchObject({
        value: { writer: winners[0] },
        version: 3,
      });
    });

    it('keeps namespaces apart whatever their segments contain', { timeout }, async () => {
      const store = await open();
      const spaces: Namespace[] = [
        ['a/b'],
        ['a', 'b'],
        ['a.b'],
        ['ab'],
        ['a', 'b', ''.padEnd(1, 'c')],
        ["'; drop table memories; --"],
        ['%'],
        ['_'],
        ['a\u0000b'],
        ['a,b'],
        ['["a","b"]'],
        ['ключ', '🔑'],
      ];
      for (const [i, space] of spaces.entries()) await store.put(space, 'k', { i, word: 'shared' });
      for (const [i, space] of spaces.entries()) {
        expect((await store.get(space, 'k'))?.value).toEqual({ i, word: 'shared' });
        expect((await store.list(space)).map((item) => item.value['i'])).toEqual([i]);
      }
      // ['a', 'b'] holds its own item and the one under it; ['a/b'] holds only its own.
      expect(
        (await store.search(['a', 'b'], { query: 'shared' })).map((h) => h.value['i']).sort(),
      ).toEqual([1, 4]);
      expect((await store.search(['a/b'], { query: 'shared' })).map((h) => h.value['i'])).toEqual([
        0,
      ]);
      expect((await store.search(['%'], { query: 'shared' })).map((h) => h.value['i'])).toEqual([
        6,
      ]);
      expect((await store.search(['_'])).map((h) => h.value['i'])).toEqual([7]);
      await expect(store.put([''], 'k', { x: 1 })).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(store.put(['u'], '', { x: 1 })).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(store.put(['u'], 'k', 'text' as unknown as JsonObject)).rejects.toBeInstanceOf(
        InvalidArgumentError,
      );
    });

    it('lists the items directly in a namespace, sorted by key', { timeout }, async () => {
      const store = await open();
      for (const key of ['b', 'B', 'a', '😀', '\uFFFD', '10', '9'])
        await store.put(['u'], key, { key });
      await store.put(['u', 'deeper'], 'c', { key: 'c' });
      await store.put(['v'], 'd', { key: 'd' });
      expect(keysOf(await store.list(['u']))).toEqual(
        ['b', 'B', 'a', '😀', '\uFFFD', '10', '9'].sort(),
      );
      expect(keysOf(await store.list(['u', 'deeper']))).toEqual(['c']);
      expect(await store.list(['nothing'])).toEqual([]);
    });

    it('searches a namespace and everything under it, never a sibling', { timeout }, async () => {
      const store = await open();
      await store.put(['users', 'alice'], 'a', { fact: 'likes green tea' });
      await store.put(['users', 'alice', 'work'], 'b', { fact: 'drinks tea at work' });
      await store.put(['users', 'alicex'], 'c', { fact: 'tea sommelier' });
      await store.put(['users', 'bob'], 'd', { fact: 'hates tea' });
      expect(keysOf(await store.search(['users', 'alice'], { query: 'tea' })).sort()).toEqual([
        'a',
        'b',
      ]);
      expect(keysOf(await store.search(['users', 'alice', 'work'], { query: 'tea' }))).toEqual([
        'b',
      ]);
      expect(keysOf(await store.search(['users'], { query: 'tea' })).sort()).toEqual([
        'a',
        'b',
        'c',
        'd',
      ]);
      const hit = (await store.search(['users', 'alice'], { query: 'work' }))[0];
      expect([...(hit?.namespace ?? [])]).toEqual(['users', 'alice', 'work']);
    });

    it('ranks by BM25: any word matches, rarer words and shorter texts rank higher', {
      timeout,
    }, async () => {
      const store = await open();
      const filler = Array.from({ length: 40 }, (_, i) => `filler${i}`).join(' ');
      await store.put(['kb'], 'cat', { text: 'the cat sat on the mat' });
      await store.put(['kb'], 'dogs', { text: 'dogs bark at night' });
      await store.put(['kb'], 'both', { text: 'a cat and a dog and a zebra' });
      await store.put(['kb'], 'long', { text: `zebra ${filler}` });
      await store.put(['kb'], 'short', { text: 'zebra crossing' });
      await store.put(['kb'], 'common1', { text: 'report weekly' });
      await store.put(['kb'], 'common2', { text: 'report monthly' });
      await store.put(['kb'], 'rare', { text: 'bonus report' });
      expect(keysOf(await store.search(['kb'], { query: 'cat' })).sort()).toEqual(['both', 'cat']);
      expect(keysOf(await store.search(['kb'], { query: 'unicorn' }))).toEqual([]);
      // Any word: "unicorn night" matches the item holding "night".
      expect(keysOf(await store.search(['kb'], { query: 'unicorn night' }))).toEqual(['dogs']);
      const zebra = keysOf(await store.search(['kb'], { query: 'zebra' }));
      expect(zebra.indexOf('short')).toBeLessThan(zebra.indexOf('long'));
      expect(keysOf(await store.search(['kb'], { query: 'bonus report' }))[0]).toBe('rare');
      const hits = await store.search(['kb'], { query: 'report' });
      for (const [i, hit] of hits.entries()) {
        expect(hit.score).toBeGreaterThan(0);
        if (i > 0) expect(hit.score).toBeLessThanOrEqual(hits[i - 1]?.score ?? 0);
      }
    });

    it('ignores stopwords in a query: an item sharing only them is not found', {
      timeout,
    }, async () => {
      const store = await open();
      await store.put(['u'], 'weather', { text: 'the weather is what it was' });
      await store.put(['u'], 'tea', { text: 'green tea' });
      expect(keysOf(await store.search(['u'], { query: 'what is the tea' }))).toEqual(['tea']);
      expect(keysOf(await store.search(['u'], { query: 'The AND of, what?' }))).toEqual([]);
    });

    it("indexes the value's strings by default, or the text put gives", { timeout }, async () => {
      const store = await open();
      await store.put(['u'], 'nested', {
        meta: { note: 'hidden treasure' },
        tags: ['alpha', 'omega'],
        n: 7,
      });
      await store.put(['u'], 'texted', { fact: 'visible words' }, { text: 'kiwi mango' });
      expect(keysOf(await store.search(['u'], { query: 'treasure' }))).toEqual(['nested']);
      expect(keysOf(await store.search(['u'], { query: 'omega' }))).toEqual(['nested']);
      expect(keysOf(await store.search(['u'], { query: 'kiwi' }))).toEqual(['texted']);
      expect(keysOf(await store.search(['u'], { query: 'visible' }))).toEqual([]);
      // A put replaces what is indexed.
      await store.put(['u'], 'texted', { fact: 'papaya' });
      expect(keysOf(await store.search(['u'], { query: 'kiwi' }))).toEqual([]);
      expect(keysOf(await store.search(['u'], { query: 'papaya' }))).toEqual(['texted']);
      await store.put(['u'], 'unicode', { fact: 'Grüße aus München, 東京 café' });
      expect(keysOf(await store.search(['u'], { query: 'münchen' }))).toEqual(['unicode']);
    });

    it('never throws on punctuation or operator words', { timeout }, async () => {
      const store = await open();
      await store.put(['u'], 'k', { text: 'AND OR NOT near quotes "here" and c++ (parens) x:y' });
      const queries = [
        '"',
        '""',
        "'",
        'AND',
        'OR',
        'NOT',
        'AND OR NOT',
        'NEAR',
        'NEAR(a b)',
        '*',
        'a*',
        '-',
        '-x',
        '+',
        '^',
        '(',
        ')',
        '(a',
        'a:b',
        'x:y',
        '{a}',
        '[',
        '\\',
        '%',
        '_',
        ';',
        "'; drop table x; --",
        'c++',
        '...',
        '   ',
        '',
        '\u0000',
        '😀',
        'a OR',
        'OR a',
        '"unterminated',
        'col:',
        ':',
      ];
      for (const query of queries) {
        const hits = await store.search(['u'], { query });
        expect(Array.isArray(hits)).toBe(true);
      }
      expect(keysOf(await store.search(['u'], { query: '"quotes"' }))).toEqual(['k']);
      expect(keysOf(await store.search(['u'], { query: 'parens)' }))).toEqual(['k']);
      expect(keysOf(await store.search(['u'], { query: 'near' }))).toEqual(['k']);
    });

    it('filters by equality on top-level value fields', { timeout }, async () => {
      const store = await open();
      await store.put(['u'], 'a', {
        kind: 'fact',
        level: 1,
        ok: true,
        tag: null,
        meta: { x: 1 },
        text: 'apple pie',
      });
      await store.put(['u'], 'b', {
        kind: 'fact',
        level: 2,
        ok: false,
        tag: 'x',
        meta: { x: 2 },
        text: 'apple tart',
      });
      await store.put(['u'], 'c', { kind: 'note', level: 1, ok: true, text: 'apple juice' });
      await store.put(['u', 'sub'], 'd', { kind: 'fact', level: 1, text: 'apple cider' });
      expect(keysOf(await store.search(['u'], { filter: { kind: 'fact' } })).sort()).toEqual([
        'a',
        'b',
        'd',
      ]);
      expect(
        keysOf(await store.search(['u'], { filter: { kind: 'fact', level: 1 } })).sort(),
      ).toEqual(['a', 'd']);
      expect(keysOf(await store.search(['u'], { filter: { ok: false } }))).toEqual(['b']);
      expect(keysOf(await store.search(['u'], { filter: { tag: null } }))).toEqual(['a']);
      expect(keysOf(await store.search(['u'], { filter: { meta: { x: 2 } } }))).toEqual(['b']);
      expect(keysOf(await store.search(['u'], { filter: { level: '1' } }))).toEqual([]);
      expect(keysOf(await store.search(['u'], { filter: { missing: 'x' } }))).toEqual([]);
      expect(
        keysOf(await store.search(['u'], { query: 'apple', filter: { kind: 'note' } })),
      ).toEqual(['c']);
    });

    it('lists newest first without a query, at most limit (10 by default)', {
      timeout,
    }, async () => {
      const store = await open();
      for (let i = 0; i < 15; i++) {
        await store.put(['u'], `k${i}`, { i, text: 'same words' });
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      await store.put(['u'], 'k3', { i: 3, text: 'updated last' });
      const newest = await store.search(['u']);
      expect(keysOf(newest)).toEqual([
        'k3',
        'k14',
        'k13',
        'k12',
        'k11',
        'k10',
        'k9',
        'k8',
        'k7',
        'k6',
      ]);
      expect(keysOf(await store.search(['u'], { limit: 3 }))).toEqual(['k3', 'k14', 'k13']);
      expect(await store.search(['u'], { query: 'same', limit: 15 })).toHaveLength(14);
      expect(await store.search(['u'], { query: 'same' })).toHaveLength(10);
      await expect(store.search(['u'], { limit: 0 })).rejects.toBeInstanceOf(InvalidArgumentError);
    });

    it('deletes items (a missing one too) from get, list and search', { timeout }, async () => {
      const store = await open();
      await store.put(['u'], 'a', { text: 'walrus' });
      await store.put(['u'], 'b', { text: 'walrus too' });
      await store.delete(['u'], 'a');
      await store.delete(['u'], 'never');
      await store.delete(['nowhere'], 'a');
      expect(await store.get(['u'], 'a')).toBeUndefined();
      expect(keysOf(await store.list(['u']))).toEqual(['b']);
      expect(keysOf(await store.search(['u'], { query: 'walrus' }))).toEqual(['b']);
      // A deleted item starts over at version 1.
      expect(await store.put(['u'], 'a', { text: 'back' }, { expectedVersion: 0 })).toEqual({
        version: 1,
      });
    });

    it('with an embedder: fuses keyword and meaning, and never embeds an unchanged text twice', {
      timeout,
    }, async () => {
      const embedder = new ConceptEmbedder();
      const store = await open({ embedder });
      await store.put(['u'], 'both', { text: 'car dealer' });
      await store.put(['u'], 'meaning', { text: 'automobile service' });
      await store.put(['u'], 'keyword', { text: 'car banana bread' });
      await store.put(['u'], 'none', { text: 'fresh bread' });
      const hits = keysOf(await store.search(['u'], { query: 'car' }));
      expect(hits[0]).toBe('both');
      expect(hits).toContain('meaning');
      expect(hits).toContain('keyword');
      expect(hits).not.toContain('none');
      // Unchanged texts: put again, searched again; each text embedded at most once.
      await store.put(['u'], 'both', { text: 'car dealer' });
      await store.put(['u'], 'both', { text: 'car dealer', extra: 1 });
      await store.search(['u'], { query: 'vehicle' });
      await store.search(['u'], { query: 'car' });
      const counts = embedder.counts();
      for (const text of ['car dealer', 'automobile service', 'car banana bread', 'fresh bread'])
        expect(counts.get(text)).toBe(1);
      // A changed text is embedded anew.
      await store.put(['u'], 'none', { text: 'vehicle parts' });
      expect(embedder.counts().get('vehicle parts')).toBe(1);
      expect(keysOf(await store.search(['u'], { query: 'automobile' }))).toContain('none');
    });
  });
}
