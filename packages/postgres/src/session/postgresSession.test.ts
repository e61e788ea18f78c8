import {
  InvalidArgumentError,
  SessionConflictError,
  SessionCorruptError,
  StoreUnavailableError,
} from '@rxagent/core';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { describePostgres } from '../../test/describePostgres.js';
import { PostgresSession } from './postgresSession.js';

describePostgres('PostgresSession', (server) => {
  const sessions: PostgresSession[] = [];
  const pools: pg.Pool[] = [];
  const open = (schema = 'rxagent'): PostgresSession => {
    const session = new PostgresSession({ connectionString: server().connectionString, schema });
    sessions.push(session);
    return session;
  };
  const rawPool = (): pg.Pool => {
    const pool = new pg.Pool({ connectionString: server().connectionString });
    pool.on('error', () => {}); // idle clients lose their server in the outage test
    pools.push(pool);
    return pool;
  };
  afterAll(async () => {
    await Promise.all(sessions.map((s) => s.close()));
    await Promise.all(pools.map((p) => p.end()));
  });

  it('saves, loads, lists and deletes, round-tripping the JSON text byte for byte', async () => {
    const session = open('crud');
    const state = { version: 1, memory: [{ text: 'hé 😀', n: 1.5e-7 }], z: null, a: {} };
    await session.save('bob', state);
    await session.save('alice', { n: 2 });
    expect(JSON.stringify(await session.load('bob'))).toBe(JSON.stringify(state));
    expect(await session.list()).toEqual(['alice', 'bob']);
    await session.delete('bob');
    await session.delete('never-saved');
    expect(await session.load('bob')).toBeUndefined();
    expect(await session.list()).toEqual(['alice']);
  });

  it('keeps hostile keys apart (NUL, %, SQL, paths, 1 KB, unicode) and lists them as JavaScript sorts', async () => {
    const session = open('keys');
    const keys = [
      "'; drop table sessions; --",
      '../x',
      'a\0b',
      'a%00b',
      'a%b',
      '%25',
      'x'.repeat(1024),
      '\uFF5E',
      '😀',
      'B',
      'a',
      '_',
      'é',
    ];
    for (const [i, key] of keys.entries()) await session.save(key, { i });
    for (const [i, key] of keys.entries()) expect(await session.load(key)).toEqual({ i });
    // JavaScript sorts by UTF-16 code units: '😀' (D83D…) before '\uFF5E', unlike code points.
    expect(await session.list()).toEqual([...keys].sort());
  });

  it('counts versions from 1 and saves only at the expected version', async () => {
    const session = open('ver');
    expect(await session.loadVersioned('k')).toBeUndefined();
    expect(await session.saveVersioned('k', { step: 1 }, { expectedVersion: 0 })).toBe(1);
    expect(await session.loadVersioned('k')).toEqual({ state: { step: 1 }, version: 1 });
    await session.save('k', { step: 2 }, { expectedVersion: 1 });
    const stale = session.save('k', { step: 'lost' }, { expectedVersion: 1 });
    await expect(stale).rejects.toBeInstanceOf(SessionConflictError);
    await expect(stale).rejects.toMatchObject({ key: 'k', expectedVersion: 1, actualVersion: 2 });
    await expect(session.save('k', { x: 1 }, { expectedVersion: 0 })).rejects.toMatchObject({
      actualVersion: 2,
    });
    await expect(session.save('new', { x: 1 }, { expectedVersion: 3 })).rejects.toMatchObject({
      actualVersion: 0,
    });
    expect(await session.loadVersioned('k')).toEqual({ state: { step: 2 }, version: 2 });
    expect(await session.loadVersioned('new')).toBeUndefined();
    await session.save('k', { step: 3 });
    expect((await session.loadVersioned('k'))?.version).toBe(3);
  });

  it('lets exactly one of 50 concurrent writers win each version, across two pools', async () => {
    const a = open('race');
    const b = open('race');
    await a.save('conv', { n: 0 });
    for (let round = 1; round <= 5; round++) {
      const version = (await a.loadVersioned('conv'))!.version;
      const results = await Promise.allSettled(
        Array.from({ length: 50 }, (_, i) =>
          (i % 2 ? a : b).save('conv', { n: round, by: i }, { expectedVersion: version }),
        ),
      );
      const won = results.filter((r) => r.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const r of results)
        if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(SessionConflictError);
      expect((await b.loadVersioned('conv'))?.version).toBe(version + 1);
    }
  });

  it('sends exactly one query per save, versioned or not', async () => {
    const pool = rawPool();
    const session = new PostgresSession({ pool, schema: 'trips' });
    sessions.push(session);
    await session.save('warm', { a: 1 }); // migrations run on first use
    let queries = 0;
    const query = pool.query.bind(pool);
    pool.query = ((...args: Parameters<typeof query>) => {
      queries++;
      return query(...args);
    }) as typeof pool.query;
    const counts: number[] = [];
    let version = 0;
    for (let i = 0; i < 20; i++) {
      queries = 0;
      version = await session.saveVersioned(
        'k',
        { i, pad: 'x'.repeat(i * 100) },
        { expectedVersion: version },
      );
      counts.push(queries);
      queries = 0;
      await session.save('u', { i });
      counts.push(queries);
    }
    expect(counts).toEqual(Array.from({ length: 40 }, () => 1));
    await session.close();
    expect(await pool.query('SELECT 1 AS one')).toMatchObject({ rows: [{ one: 1 }] });
  });

  it('rejects a row that cannot be read back with SessionCorruptError naming the key', async () => {
    const session = open('bad');
    await session.save('good', { a: 1 });
    const pool = rawPool();
    await pool.query(`INSERT INTO bad.sessions (key, version, state) VALUES
      ('json', 1, '{"a":'), ('array', 1, '[1]'), ('zero', 0, '{}')`);
    for (const key of ['json', 'array', 'zero']) {
      for (const read of [() => session.load(key), () => session.loadVersioned(key)]) {
        await expect(read()).rejects.toBeInstanceOf(SessionCorruptError);
        await expect(read()).rejects.toMatchObject({ code: 'SESSION_CORRUPT', path: key });
      }
      await expect(session.load(key)).rejects.toThrow(`"${key}"`);
    }
    // Another key is read as before, and a save repairs the broken one.
    expect(await session.load('good')).toEqual({ a: 1 });
    await session.save('json', { fixed: true });
    expect(await session.load('json')).toEqual({ fixed: true });
  });

  it('rejects a bad key, state, version or schema before touching the database', async () => {
    const session = new PostgresSession({ connectionString: 'postgresql://x@127.0.0.1:1/none' });
    await expect(session.save('', { a: 1 })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(session.save('k', { a: Number.NaN })).rejects.toThrow('state.a is NaN');
    await expect(session.save('k', { a: 1 }, { expectedVersion: -1 })).rejects.toThrow(
      'expectedVersion',
    );
    await expect(session.load('\uD800')).rejects.toBeInstanceOf(InvalidArgumentError);
    // Longer than a PostgreSQL B-tree entry holds: refused by name, not by the index.
    await expect(session.save('鍵'.repeat(700), { a: 1 })).rejects.toThrow(/2100 bytes in UTF-8/);
    expect(() => new PostgresSession({ schema: 'x"; drop' })).toThrow(InvalidArgumentError);
    expect(() => new PostgresSession({ shema: 'x' } as never)).toThrow(/shema/);
    await session.close();
  });

  it('fails with StoreUnavailableError naming PostgreSQL when nothing listens', async () => {
    const session = new PostgresSession({
      connectionString: 'postgresql://x@127.0.0.1:1/none',
      timeoutMs: 1_000,
    });
    const load = session.load('k');
    await expect(load).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(load).rejects.toMatchObject({ store: 'postgres' });
    await expect(session.list()).rejects.toThrow(/PostgreSQL is not reachable/);
    await session.close();
  });

  it('fails while the server is down and works again once it is back', {
    timeout: 120_000,
  }, async () => {
    const session = open('outage');
    await session.save('k', { n: 1 });
    await server().kill();
    try {
      await expect(session.save('k', { n: 2 })).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(session.load('k')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    } finally {
      await server().restart();
    }
    expect(await session.load('k')).toEqual({ n: 1 });
    await session.save('k', { n: 3 }, { expectedVersion: 1 });
    expect(await session.loadVersioned('k')).toEqual({ state: { n: 3 }, version: 2 });
  });
});
