import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Embedder, SessionCorruptError, StoreUnavailableError } from '@rxagent/core';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../src/index.js';
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
