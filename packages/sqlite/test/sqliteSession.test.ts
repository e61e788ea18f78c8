import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  InvalidArgumentError,
  SessionConflictError,
  SessionCorruptError,
  StoreUnavailableError,
} from '@rxagent/core';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteSession } from '../src/index.js';
import { runSessionProcess } from './processes.js';
import { rawDatabase } from './raw.js';

const root = mkdtempSync(join(tmpdir(), 'rxagent-sqlite-session-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const file = () => join(root, `db-${n++}.sqlite`);

describe('SqliteSession', () => {
  it('creates its table by a numbered migration recorded once, and uses WAL', async () => {
    const path = file();
    const session = new SqliteSession({ path });
    await session.save('a', { n: 1 });
    await session.close();
    const again = new SqliteSession({ path });
    await again.save('b', { n: 2 });
    expect(await again.list()).toEqual(['a', 'b']);
    await again.close();
    const db = rawDatabase(path);
    expect(db.prepare('SELECT target, version FROM rxagent_migrations').all()).toEqual([
      { target: 'rxagent_sessions', version: 1 },
    ]);
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    db.close();
  });

  it('fails, writing nothing, on a database whose schema is newer than the package', async () => {
    const path = file();
    const first = new SqliteSession({ path });
    await first.save('kept', { n: 1 });
    await first.close();
    const db = rawDatabase(path);
    db.prepare(
      "INSERT INTO rxagent_migrations (target, version, description, applied_at) VALUES ('rxagent_sessions', 2, 'from the future', 'x')",
    ).run();
    const before = db.prepare('SELECT key, version, state FROM rxagent_sessions').all();
    const session = new SqliteSession({ path });
    const saving = session.save('new', { n: 2 });
    await expect(saving).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(saving).rejects.toThrow(/version 2, newer than this @rxagent\/sqlite knows \(1\)/);
    await expect(session.load('kept')).rejects.toThrow(/newer/);
    expect(db.prepare('SELECT key, version, state FROM rxagent_sessions').all()).toEqual(before);
    db.close();
    await session.close();
  });

  it('migrates once when several processes start on a new file at once', {
    timeout: 120_000,
  }, async () => {
    const path = file();
    const startAt = String(Date.now() + 3000);
    const outputs = await Promise.all(
      [1, 2, 3, 4].map((i) =>
        runSessionProcess({ DB: path, MODE: 'start', NAME: String(i), START_AT: startAt }),
      ),
    );
    expect(outputs).toEqual(['saved\n', 'saved\n', 'saved\n', 'saved\n']);
    const session = new SqliteSession({ path });
    expect(await session.list()).toEqual(['process-1', 'process-2', 'process-3', 'process-4']);
    await session.close();
    const db = rawDatabase(path);
    expect(db.prepare('SELECT COUNT(*) AS n FROM rxagent_migrations').get()).toEqual({ n: 1 });
    db.close();
  });

  it('never lets two processes sharing one file both win a version', {
    timeout: 120_000,
  }, async () => {
    const path = file();
    const startAt = String(Date.now() + 3000);
    const outputs = await Promise.all(
      ['a', 'b'].map((name) =>
        runSessionProcess({ DB: path, MODE: 'race', NAME: name, ROUNDS: '300', START_AT: startAt }),
      ),
    );
    const [a, b] = outputs.map((out) => JSON.parse(out) as number[]) as [number[], number[]];
    const session = new SqliteSession({ path });
    const final = (await session.loadVersioned('race'))?.version ?? 0;
    await session.close();
    // Every version was won exactly once, by one of the two.
    expect([...a, ...b].sort((x, y) => x - y)).toEqual(
      Array.from({ length: final }, (_, i) => i + 1),
    );
    expect(a.filter((v) => b.includes(v))).toEqual([]);
    expect(final).toBeGreaterThan(300);
  });

  it('rejects a row it cannot read with SessionCorruptError naming the key', async () => {
    const path = file();
    const session = new SqliteSession({ path });
    await session.save("it's broken", { n: 1 });
    await session.save('array', { n: 1 });
    const db = rawDatabase(path);
    db.prepare('UPDATE rxagent_sessions SET state = ? WHERE key = ?').run('{"n": 1', "it's broken");
    db.prepare('UPDATE rxagent_sessions SET state = ? WHERE key = ?').run('[1]', 'array');
    db.close();
    const loading = session.load("it's broken");
    await expect(loading).rejects.toBeInstanceOf(SessionCorruptError);
    await expect(loading).rejects.toThrow(/"it's broken"/);
    await expect(loading).rejects.toMatchObject({ path: "it's broken" });
    await expect(session.loadVersioned('array')).rejects.toThrow(/not hold a JSON object/);
    await session.close();
  });

  it('fails with StoreUnavailableError while the database is unavailable, and works once it is back', async () => {
    const dir = join(root, `missing-${n++}`);
    const path = join(dir, 'db.sqlite');
    const session = new SqliteSession({ path, busyTimeoutMs: 50 });
    const saving = session.save('k', { n: 1 });
    await expect(saving).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(saving).rejects.toMatchObject({ store: `SqliteSession(${path})` });
    await mkdir(dir);
    await session.save('k', { n: 1 });
    // Another connection holds the write lock past the busy timeout.
    const db = rawDatabase(path);
    db.exec('BEGIN EXCLUSIVE');
    await expect(session.save('k', { n: 2 })).rejects.toBeInstanceOf(StoreUnavailableError);
    db.exec('ROLLBACK');
    db.close();
    await session.save('k', { n: 3 }, { expectedVersion: 1 });
    expect(await session.loadVersioned('k')).toEqual({ state: { n: 3 }, version: 2 });
    await session.close();
  });

  it('keeps tables apart, and checks its options', async () => {
    const path = file();
    const a = new SqliteSession({ path, table: 'a_sessions' });
    const b = new SqliteSession({ path, table: 'b_sessions' });
    await a.save('k', { from: 'a' });
    expect(await b.load('k')).toBeUndefined();
    await b.save('k', { from: 'b' }, { expectedVersion: 0 });
    await expect(b.save('k', { from: 'b' }, { expectedVersion: 0 })).rejects.toBeInstanceOf(
      SessionConflictError,
    );
    expect(await a.load('k')).toEqual({ from: 'a' });
    await a.close();
    await b.close();
    expect(() => new SqliteSession({ table: 'x; drop table y' })).toThrow(InvalidArgumentError);
    expect(() => new SqliteSession({ paht: 'x' } as never)).toThrow(/paht/);
    expect(() => new SqliteSession({ driver: 'sqlite3' as never })).toThrow(InvalidArgumentError);
    expect(() => new SqliteSession({ busyTimeoutMs: -1 })).toThrow(InvalidArgumentError);
    await expect(
      new SqliteSession().save('k', { n: 1 }, { expectedVersion: 1.5 }),
    ).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('fails every call after close()', async () => {
    const session = new SqliteSession();
    await session.save('k', { n: 1 });
    await session.close();
    await expect(session.load('k')).rejects.toThrow(/closed/);
  });
});
