import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Embedder, SessionCorruptError, StoreUnavailableError } from '@rxagent/core';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_TABLE } from '../src/driver/migrations.js';
import { SqliteStore } from '../src/index.js';
import { ftsQuery } from '../src/store/ftsQuery.js';
import { storeSchema } from '../src/store/storeSchema.js';
import { storeStatements } from '../src/store/storeStatements.js';
import { rawDatabase } from './raw.js';

const root = mkdtempSync(join(tmpdir(), 'rxagent-sqlite-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const file = () => join(root, `db-${n++}.sqlite`);

/** Letters' counts as a vector; counts the texts it embeds. */
function countingEmbedder(): Embedder & { texts: string[] } {
  const texts: string[] = [];
  return {
    name: 'letters',
    dimensions: 26,
    texts,
    async embed(batch) {
      texts.push(...batch);
      return batch.map((text) => {
        const v = new Array<number>(26).fill(0);
        for (const c of text.toLowerCase()) {
          const i = c.charCodeAt(0) - 97;
          if (i >= 0 && i < 26) v[i] = (v[i] ?? 0) + 1;
        }
        return v;
      });
    },
  };
}

describe('SqliteStore', () => {
  it('keeps vectors as blobs: a reopened store never embeds an unchanged text again', async () => {
    const path = file();
    const embedder = countingEmbedder();
    const store = new SqliteStore({ path, embedder });
    await store.put(['u'], 'a', { fact: 'alpha beta' });
    await store.close();
    const reopened = new SqliteStore({ path, embedder });
    await reopened.put(['u'], 'a', { fact: 'alpha beta', seen: 2 });
    expect(embedder.texts).toEqual(['alpha beta']);
    expect((await reopened.search(['u'], { query: 'alpha' }))[0]?.key).toBe('a');
    await reopened.close();
    const db = rawDatabase(path);
    const row = db.prepare('SELECT embedder, length(vector) AS bytes FROM rxagent_memory').get();
    expect(row).toEqual({ embedder: 'letters', bytes: 26 * 4 });
    db.close();
  });

  it('rejects an item it cannot read with SessionCorruptError naming the key', async () => {
    const path = file();
    const store = new SqliteStore({ path });
    await store.put(['u'], 'bad key', { fact: 'x' });
    const db = rawDatabase(path);
    db.prepare("UPDATE rxagent_memory SET value = 'not json'").run();
    db.close();
    const getting = store.get(['u'], 'bad key');
    await expect(getting).rejects.toBeInstanceOf(SessionCorruptError);
    await expect(getting).rejects.toMatchObject({ path: 'bad key' });
    await store.close();
  });

  it('fails, writing nothing, on a database whose schema is newer than the package', async () => {
    const path = file();
    const first = new SqliteStore({ path });
    await first.put(['u'], 'k', { fact: 'x' });
    await first.close();
    const db = rawDatabase(path);
    db.prepare(
      "INSERT INTO rxagent_migrations (target, version, description, applied_at) VALUES ('rxagent_memory', 7, 'future', 'x')",
    ).run();
    const store = new SqliteStore({ path });
    await expect(store.put(['u'], 'k2', { fact: 'y' })).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    expect(db.prepare('SELECT COUNT(*) AS n FROM rxagent_memory').get()).toEqual({ n: 1 });
    db.close();
    await store.close();
  });

  it('upgrades a database written by the first schema: every item searchable, by namespace', async () => {
    // A file as @rxagent/sqlite wrote it before the namespace joined the full-text index:
    // migration 1 only (it never changes once shipped), rows inserted as that version did.
    const path = file();
    const old = rawDatabase(path);
    old.exec(storeSchema('rxagent_memory').migrations[0]?.sql ?? '');
    old.exec(
      `CREATE TABLE ${MIGRATIONS_TABLE} (target TEXT NOT NULL, version INTEGER NOT NULL, description TEXT NOT NULL, applied_at TEXT NOT NULL, PRIMARY KEY (target, version))`,
    );
    old.prepare(`INSERT INTO ${MIGRATIONS_TABLE} VALUES ('rxagent_memory', 1, 'v1', 'then')`).run();
    const insert = old.prepare(
      'INSERT INTO rxagent_memory (ns, key, value, text, version, updated_at, seq) VALUES (?, ?, ?, ?, 1, ?, ?)',
    );
    const rows: [string, string, string][] = [
      ['users/alice/', 'tea', 'alice drinks green tea'],
      ['users/alice/work/', 'desk', 'tea at the desk'],
      ['users/bob/', 'tea', 'bob hates tea'],
      ['users/alicia/', 'tea', 'alicia brews tea'],
    ];
    for (const [i, [ns, key, text]] of rows.entries())
      insert.run(ns, key, JSON.stringify({ text }), text, '2026-01-01T00:00:00.000Z', i + 1);
    old.close();

    const store = new SqliteStore({ path });
    const keys = async (namespace: string[]) =>
      (await store.search(namespace, { query: 'tea' })).map((h) => h.namespace.join('/'));
    expect((await keys(['users', 'alice'])).sort()).toEqual(['users/alice', 'users/alice/work']);
    expect(await keys(['users', 'bob'])).toEqual(['users/bob']);
    expect(await keys(['users'])).toHaveLength(4);
    await store.put(['users', 'bob'], 'coffee', { text: 'bob drinks coffee' });
    await store.delete(['users', 'alice'], 'tea');
    expect(await keys(['users', 'alice'])).toEqual(['users/alice/work']);
    expect((await store.search(['users', 'bob'], { query: 'coffee' }))[0]?.key).toBe('coffee');
    expect((await store.search(['users', 'alice'], { query: 'coffee' })).length).toBe(0);
    await store.close();
    const db = rawDatabase(path);
    expect(
      db
        .prepare(
          `SELECT MAX(version) AS v FROM ${MIGRATIONS_TABLE} WHERE target = 'rxagent_memory'`,
        )
        .get(),
    ).toEqual({ v: 2 });
    db.close();
  });

  it('ranks a small namespace inside the FTS5 query as the range filter does', async () => {
    // Two plans answer a query, picked by the namespace's share of the items: the namespace
    // inside the FTS5 query, or a range filter after it. Same rows, same scores.
    const path = file();
    const store = new SqliteStore({ path });
    const texts = ['tea tea green', 'tea', 'green tea with a very long tail of words'];
    for (const [i, text] of texts.entries()) await store.put(['small'], `s${i}`, { text });
    for (let i = 0; i < 60; i++) await store.put(['big'], `b${i}`, { text: `tea ${i}` });
    const hits = await store.search(['small'], { query: 'green tea' });
    await store.close();
    const db = rawDatabase(path);
    const filtered = db
      .prepare(storeStatements('rxagent_memory').within)
      .all(ftsQuery('green tea') ?? '', 'small/', 'small0');
    db.close();
    expect(hits.map((h) => [h.key, h.score])).toEqual(filtered.map((r) => [r['key'], r['score']]));
    expect(hits.map((h) => h.key)).toEqual(['s0', 's2', 's1']);
  });

  it('finds the best of a namespace holding most items when better matches lie outside it', async () => {
    // The namespace holds 10 of 15 items: its search first takes the table's best few
    // matches, here all outside it (shorter texts, the word twice), then filters by range.
    const path = file();
    const store = new SqliteStore({ path });
    for (let i = 0; i < 10; i++)
      await store.put(['big'], `b${i}`, { text: `tea ${'long words '.repeat(i)}` });
    for (let i = 0; i < 5; i++) await store.put(['other'], `o${i}`, { text: 'tea tea' });
    const hits = await store.search(['big'], { query: 'tea', limit: 3 });
    await store.close();
    const db = rawDatabase(path);
    const filtered = db
      .prepare(`${storeStatements('rxagent_memory').within} LIMIT 3`)
      .all(ftsQuery('tea') ?? '', 'big/', 'big0');
    db.close();
    expect(hits.map((h) => h.key)).toEqual(['b0', 'b1', 'b2']);
    expect(hits.map((h) => [h.key, h.score])).toEqual(filtered.map((r) => [r['key'], r['score']]));
  });

  it('shares one file between a session and a store, each in its own tables', async () => {
    const path = file();
    const { SqliteSession } = await import('../src/index.js');
    const session = new SqliteSession({ path });
    const store = new SqliteStore({ path });
    await session.save('k', { n: 1 });
    await store.put(['u'], 'k', { fact: 'shared file' });
    expect(await session.load('k')).toEqual({ n: 1 });
    expect((await store.search(['u'], { query: 'shared' }))[0]?.key).toBe('k');
    await session.close();
    await store.close();
  });

  it('finds a filtered item beyond the first page of matches', async () => {
    const store = new SqliteStore();
    for (let i = 0; i < 30; i++)
      await store.put(['u'], `k${i}`, { kind: i === 3 ? 'rare' : 'common', text: 'apple' });
    expect(
      (await store.search(['u'], { query: 'apple', filter: { kind: 'rare' }, limit: 1 })).map(
        (h) => h.key,
      ),
    ).toEqual(['k3']);
    expect(
      (await store.search(['u'], { filter: { kind: 'rare' }, limit: 1 })).map((h) => h.key),
    ).toEqual(['k3']);
    await store.close();
  });
});
