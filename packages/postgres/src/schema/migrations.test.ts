import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { describePostgres } from '../../test/describePostgres.js';
import { PostgresSession } from '../session/postgresSession.js';
import { SCHEMA_VERSION, SchemaTooNewError } from './migrations.js';

describePostgres('migrations', (server) => {
  const pools: pg.Pool[] = [];
  const rawPool = (): pg.Pool => {
    const pool = new pg.Pool({ connectionString: server().connectionString });
    pools.push(pool);
    return pool;
  };
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
  });

  it('applies each step once when eight pools start on an empty database at once', async () => {
    const sessions = Array.from(
      { length: 8 },
      () => new PostgresSession({ connectionString: server().connectionString, schema: 'herd' }),
    );
    await Promise.all(sessions.map((s, i) => s.save(`k${i}`, { i })));
    await Promise.all(sessions.map((s) => s.close()));
    const { rows } = await rawPool().query('SELECT version, name FROM herd.migrations ORDER BY 1');
    expect(rows.map((r) => r.version)).toEqual(
      Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1),
    );
    expect(rows.map((r) => r.name)).toEqual(['sessions', 'memory_items']);
  });

  it('refuses a schema migrated by a newer package, reading and writing nothing', async () => {
    const pool = rawPool();
    await new PostgresSession({ pool, schema: 'future' }).save('k', { old: true });
    await pool.query(
      `INSERT INTO future.migrations (version, name) VALUES (${SCHEMA_VERSION + 1}, 'next')`,
    );
    const before = await pool.query('SELECT key, version, state FROM future.sessions');
    const session = new PostgresSession({
      connectionString: server().connectionString,
      schema: 'future',
    });
    for (const call of [
      () => session.save('k', { new: true }),
      () => session.save('other', { new: true }, { expectedVersion: 0 }),
      () => session.load('k'),
      () => session.list(),
    ]) {
      const failed = call();
      await expect(failed).rejects.toBeInstanceOf(SchemaTooNewError);
      await expect(failed).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', store: 'postgres' });
      await expect(failed).rejects.toThrow(/newer than this @rxagent\/postgres knows/);
    }
    await session.close();
    expect((await pool.query('SELECT key, version, state FROM future.sessions')).rows).toEqual(
      before.rows,
    );
    expect((await pool.query('SELECT count(*)::int AS n FROM future.migrations')).rows).toEqual([
      { n: SCHEMA_VERSION + 1 },
    ]);
  });
});
