import { SessionCorruptError, StoreUnavailableError } from '@rxagent/core';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { describePostgres } from '../../test/describePostgres.js';
import { PostgresStore } from './postgresStore.js';

describePostgres('PostgresStore', (server) => {
  const pools: pg.Pool[] = [];
  const rawPool = (): pg.Pool => {
    const pool = new pg.Pool({ connectionString: server().connectionString });
    pool.on('error', () => {});
    pools.push(pool);
    return pool;
  };
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
  });

  it('puts in one statement, versioned or not', async () => {
    const pool = rawPool();
    const store = new PostgresStore({ pool, schema: 'trips' });
    await store.put(['u'], 'warm', { a: 1 });
    let queries = 0;
    const query = pool.query.bind(pool);
    pool.query = ((...args: Parameters<typeof query>) => {
      queries++;
      return query(...args);
    }) as typeof pool.query;
    await store.put(['u'], 'k', { fact: 'one' });
    await store.put(['u'], 'k', { fact: 'two' }, { expectedVersion: 1 });
    await store.put(['u'], 'n', { fact: 'new' }, { expectedVersion: 0 });
    expect(queries).toBe(3);
    await store.close();
  });

  it('binds filter field names and values, NUL included, as data', async () => {
    const store = new PostgresStore({
      connectionString: server().connectionString,
      schema: 'filters',
    });
    await store.put(['u'], 'a', { "x'); drop table memory_items; --": 1, s: 'a\0b', text: 'kiwi' });
    await store.put(['u'], 'b', { s: 'a\uFFFDc', text: 'kiwi' });
    expect(
      (await store.search(['u'], { filter: { "x'); drop table memory_items; --": 1 } })).map(
        (h) => h.key,
      ),
    ).toEqual(['a']);
    expect(
      (await store.search(['u'], { query: 'kiwi', filter: { s: 'a\0b' } })).map((h) => h.key),
    ).toEqual(['a']);
    expect((await store.get(['u'], 'a'))?.value['s']).toBe('a\0b');
    await store.close();
  });

  it('rejects a row that cannot be read back with SessionCorruptError naming the key', async () => {
    const store = new PostgresStore({
      connectionString: server().connectionString,
      schema: 'broken',
    });
    await store.put(['u'], 'fine', { text: 'ok' });
    await rawPool().query(`UPDATE broken.memory_items SET value = '{"a":' WHERE key = 'fine'`);
    const read = store.get(['u'], 'fine');
    await expect(read).rejects.toBeInstanceOf(SessionCorruptError);
    await expect(read).rejects.toMatchObject({ path: 'fine' });
    await expect(store.list(['u'])).rejects.toThrow('"fine"');
    await store.close();
  });

  it('fails with StoreUnavailableError when nothing listens', async () => {
    const store = new PostgresStore({
      connectionString: 'postgresql://x@127.0.0.1:1/none',
      timeoutMs: 1_000,
    });
    await expect(store.search(['u'], { query: 'x' })).rejects.toMatchObject({ store: 'postgres' });
    await expect(store.put(['u'], 'k', { a: 1 })).rejects.toBeInstanceOf(StoreUnavailableError);
    await store.close();
  });
});
