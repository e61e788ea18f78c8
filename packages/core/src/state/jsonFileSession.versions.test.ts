import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError, SessionConflictError } from '../errors.js';
import { JsonFileSession } from './jsonFileSession.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rxagent-jsonfile-versions-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const incrementer = fileURLToPath(new URL('./fixtures/incrementProcess.ts', import.meta.url));

function runIncrementer(key: string, times: number): Promise<{ conflicts: number }> {
  const child = spawn(
    process.execPath,
    ['--conditions=@rxagent/source', '--import', 'tsx', incrementer, dir, key, String(times)],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (part: Buffer) => {
    stdout += part.toString();
  });
  child.stderr.on('data', (part: Buffer) => {
    stderr += part.toString();
  });
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      if (code === 0) resolve(JSON.parse(stdout) as { conflicts: number });
      else reject(new Error(`incrementer exited with ${String(code)}: ${stderr.slice(-2000)}`));
    }),
  );
}

describe('JsonFileSession versions', () => {
  it('counts saves: version 1 after the first, +1 on each', async () => {
    const session = new JsonFileSession(dir);
    expect(await session.loadVersioned('k')).toBeUndefined();
    await session.save('k', { n: 1 });
    expect(await session.loadVersioned('k')).toEqual({ state: { n: 1 }, version: 1 });
    await session.save('k', { n: 2 }, { expectedVersion: 1 });
    expect(await session.loadVersioned('k')).toEqual({ state: { n: 2 }, version: 2 });
  });

  it('rejects a save at a stale version with SessionConflictError and changes nothing', async () => {
    const session = new JsonFileSession(dir);
    await session.save('k', { n: 1 }, { expectedVersion: 0 });
    await session.save('k', { n: 2 }, { expectedVersion: 1 });
    const stale = session.save('k', { n: 3 }, { expectedVersion: 1 });
    await expect(stale).rejects.toBeInstanceOf(SessionConflictError);
    await expect(stale).rejects.toMatchObject({ key: 'k', expectedVersion: 1, actualVersion: 2 });
    expect(await session.loadVersioned('k')).toEqual({ state: { n: 2 }, version: 2 });
    await expect(session.save('new', {}, { expectedVersion: 1 })).rejects.toBeInstanceOf(
      SessionConflictError,
    );
    expect(await session.list()).toEqual(['k']);
  });

  it('lets exactly one of two concurrent saves at one version win', async () => {
    const a = new JsonFileSession(dir);
    const b = new JsonFileSession(dir);
    await a.save('k', { n: 0 });
    const results = await Promise.allSettled([
      a.save('k', { by: 'a' }, { expectedVersion: 1 }),
      b.save('k', { by: 'b' }, { expectedVersion: 1 }),
    ]);
    const won = results.filter((result) => result.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect((await a.loadVersioned('k'))?.version).toBe(2);
  });

  it('rejects a bad expectedVersion before touching the disk', async () => {
    const session = new JsonFileSession(dir);
    await expect(session.save('k', {}, { expectedVersion: -1 })).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it('reads a file without a revision (an older rxagent wrote it) as version 1', async () => {
    const session = new JsonFileSession(dir);
    const old = { version: 1, key: 'k', state: { n: 1 } };
    await writeFile(session.pathFor('k'), JSON.stringify(old));
    expect(await session.loadVersioned('k')).toEqual({ state: { n: 1 }, version: 1 });
    await session.save('k', { n: 2 }, { expectedVersion: 1 });
    expect(await session.loadVersioned('k')).toEqual({ state: { n: 2 }, version: 2 });
  });

  it('breaks a lock whose process is gone and leaves no lock behind', async () => {
    const session = new JsonFileSession(dir);
    await session.save('k', { n: 1 });
    const lock = join(dir, '.k.json.lock');
    // pid 2^22 + 1 is above Linux's pid_max: no process has it.
    await writeFile(lock, `${hostname()} 4194305 abandoned\n`);
    await session.save('k', { n: 2 }, { expectedVersion: 1 });
    expect(await session.load('k')).toEqual({ n: 2 });
    expect((await readdir(dir)).sort()).toEqual(['k.json']);
  });

  it('loses no update when two processes race versioned saves of one key', {
    timeout: 60_000,
  }, async () => {
    const times = 40;
    await Promise.all([runIncrementer('counter', times), runIncrementer('counter', times)]);
    const saved = await new JsonFileSession(dir).loadVersioned('counter');
    expect(saved).toEqual({ state: { count: 2 * times }, version: 2 * times });
    expect(await readdir(dir)).toEqual(['counter.json']);
  });
});
