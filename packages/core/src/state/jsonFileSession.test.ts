import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError, SessionCorruptError } from '../errors.js';
import type { JsonObject } from '../json.js';
import { JsonFileSession } from './jsonFileSession.js';

let root: string;
let dir: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'rxagent-jsonfile-'));
  dir = join(root, 'nested', 'sessions');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function corruptError(session: JsonFileSession, key: string): Promise<SessionCorruptError> {
  const error = await session.load(key).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SessionCorruptError);
  return error as SessionCorruptError;
}

describe('JsonFileSession', () => {
  it('names its directory, not a raw EEXIST or ENOTDIR, when a file is where the directory should be', async () => {
    const file = join(root, 'taken');
    await writeFile(file, 'not a directory');
    const session = new JsonFileSession(file);
    for (const attempt of [
      () => session.save('k', { v: 1 }),
      () => session.load('k'),
      () => session.loadVersioned('k'),
      () => session.list(),
    ]) {
      const error = await attempt().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as Error).message).toContain(`session directory ${file} is not a directory`);
    }
    expect(await readFile(file, 'utf8')).toBe('not a directory');
  });

  it('creates its directory on the first save, not before', async () => {
    const session = new JsonFileSession(dir);
    expect(await session.load('k')).toBeUndefined();
    expect(await session.list()).toEqual([]);
    await expect(stat(dir)).rejects.toMatchObject({ code: 'ENOENT' });
    await session.save('k', { v: 1 });
    expect((await stat(dir)).isDirectory()).toBe(true);
  });

  it('writes { version, revision, key, state } pretty-printed with a trailing newline', async () => {
    const session = new JsonFileSession(dir);
    await session.save('alice', { version: 1, memory: { n: [1, 2] } });
    const text = await readFile(join(dir, 'alice.json'), 'utf8');
    expect(text).toBe(
      '{\n  "version": 1,\n  "revision": 1,\n  "key": "alice",\n  "state": {\n    "version": 1,\n    "memory": {\n      "n": [\n        1,\n        2\n      ]\n    }\n  }\n}\n',
    );
  });

  it('writes a byte-identical file, but for the revision, when a loaded state is saved again', async () => {
    const session = new JsonFileSession(dir);
    await session.save('k', { b: 'é', a: [{ z: 1, y: null }], '10': true, '2': false });
    const first = await readFile(session.pathFor('k'), 'utf8');
    await session.save('k', (await session.load('k'))!);
    const second = await readFile(session.pathFor('k'), 'utf8');
    expect(second).toBe(first.replace('"revision": 1,', '"revision": 2,'));
  });

  it('keeps a path-like key as one file inside the directory', async () => {
    const session = new JsonFileSession(dir);
    await session.save('../../etc/passwd', { v: 1 });
    expect(await readdir(dir)).toEqual(['%2E%2E%2F%2E%2E%2Fetc%2Fpasswd.json']);
    expect(await readdir(root)).toEqual(['nested']);
    expect(session.pathFor('../../etc/passwd')).toBe(
      join(dir, '%2E%2E%2F%2E%2E%2Fetc%2Fpasswd.json'),
    );
  });

  it('keeps "Alice" and "alice" in files whose names differ beyond case', async () => {
    const session = new JsonFileSession(dir);
    await session.save('Alice', { who: 'upper' });
    await session.save('alice', { who: 'lower' });
    const names = await readdir(dir);
    expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(2);
    expect(await session.load('Alice')).toEqual({ who: 'upper' });
    expect(await session.load('alice')).toEqual({ who: 'lower' });
  });

  it('lists only its own files, skipping temp and foreign files', async () => {
    const session = new JsonFileSession(dir);
    await session.save('k', {});
    await writeFile(join(dir, 'notes.txt'), 'x');
    await writeFile(join(dir, '.1234.tmp'), '{');
    await writeFile(join(dir, 'Bob.json'), '{}');
    expect(await session.list()).toEqual(['k']);
  });

  it("removes temp files left by a crashed writer on first use, keeping live writers' temps", async () => {
    await mkdir(dir, { recursive: true });
    const host = hostname().replace(/[^A-Za-z0-9-]/g, '-');
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const crashed = `.${host}.${dead}.${randomUUID()}.tmp`;
    const live = `.${host}.${process.pid}.${randomUUID()}.tmp`;
    const otherHost = `.elsewhere.${dead}.${randomUUID()}.tmp`;
    const oldOther = `.elsewhere.${process.pid}.${randomUUID()}.tmp`;
    const legacy = `.${randomUUID()}.tmp`;
    for (const name of [crashed, live, otherHost, oldOther, legacy]) {
      await writeFile(join(dir, name), '{"version":');
    }
    const anHourAgo = new Date(Date.now() - 60 * 60 * 1000);
    await utimes(join(dir, oldOther), anHourAgo, anHourAgo);
    await utimes(join(dir, legacy), anHourAgo, anHourAgo);

    const session = new JsonFileSession(dir);
    expect(await session.list()).toEqual([]);

    expect((await readdir(dir)).sort()).toEqual([live, otherHost].sort());
    await session.save('k', {});
    expect((await readdir(dir)).sort()).toEqual(['k.json', live, otherHost].sort());
  });

  it('reports a file that is not valid JSON with its path, line and what to do', async () => {
    const session = new JsonFileSession(dir);
    await session.save('k', { v: 1 });
    await writeFile(session.pathFor('k'), '{\n  "version": 1,\n  "key": "k",\n  "state": {,\n}\n');
    const error = await corruptError(session, 'k');
    expect(error.path).toBe(session.pathFor('k'));
    expect(error.message).toContain(session.pathFor('k'));
    expect(error.message).toMatch(/is not valid JSON \(line 4, column 13\)/);
    expect(error.message).toMatch(/restore it from a backup, or delete it/i);
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it('reports an empty (truncated) file as corrupt, never as an empty state', async () => {
    const session = new JsonFileSession(dir);
    await session.save('k', { v: 1 });
    await writeFile(session.pathFor('k'), '');
    expect((await corruptError(session, 'k')).message).toMatch(
      /not valid JSON \(line 1, column 1\)/,
    );
  });

  it.each([
    ['an array', '[]', /does not hold a JSON object/],
    [
      'another version',
      '{"version": 2, "key": "k", "state": {}}',
      /has version 2, but this rxagent reads version 1/,
    ],
    ['no version', '{"key": "k", "state": {}}', /has version undefined/],
    ['another key', '{"version": 1, "key": "other", "state": {}}', /holds key "other", not "k"/],
    ['no state', '{"version": 1, "key": "k"}', /has no "state" object/],
    ['a non-object state', '{"version": 1, "key": "k", "state": [1]}', /has no "state" object/],
  ])('reports a file holding %s as corrupt, naming the problem', async (_label, text, message) => {
    const session = new JsonFileSession(dir);
    await session.save('k', {});
    await writeFile(session.pathFor('k'), text);
    const error = await corruptError(session, 'k');
    expect(error.message).toMatch(message);
    expect(error.message).toContain(session.pathFor('k'));
  });

  it('reads a file that an editor saved with a byte-order mark', async () => {
    const session = new JsonFileSession(dir);
    await session.save('k', {});
    await writeFile(session.pathFor('k'), '\uFEFF{"version": 1, "key": "k", "state": {"v": 1}}');
    expect(await session.load('k')).toEqual({ v: 1 });
  });

  it('rethrows read errors other than a missing file', async () => {
    const session = new JsonFileSession(dir);
    await mkdir(session.pathFor('k'), { recursive: true });
    await expect(session.load('k')).rejects.toMatchObject({ code: 'EISDIR' });
  });

  it('never leaves a torn file when separate instances save one key concurrently', async () => {
    const states: JsonObject[] = Array.from({ length: 20 }, (_, i) => ({
      i,
      text: 'x'.repeat(10_000 + i),
    }));
    await Promise.all(states.map((state) => new JsonFileSession(dir).save('shared', state)));
    const loaded = await new JsonFileSession(dir).load('shared');
    expect(states).toContainEqual(loaded);
    expect(await readdir(dir)).toEqual(['shared.json']);
  });

  it('applies unawaited saves and deletes of one key in call order', async () => {
    const session = new JsonFileSession(dir);
    const writes = Array.from({ length: 20 }, (_, i) => session.save('k', { i }));
    await Promise.all(writes);
    expect(await session.load('k')).toEqual({ i: 19 });
    const last = [session.save('k', { i: 20 }), session.delete('k')];
    await Promise.all(last);
    expect(await session.load('k')).toBeUndefined();
    expect(await readdir(dir)).toEqual([]);
  });

  it('removes its temp file and rejects when the rename fails', async () => {
    const session = new JsonFileSession(dir);
    await mkdir(join(session.pathFor('k'), 'occupied'), { recursive: true });
    await expect(session.save('k', { v: 1 })).rejects.toMatchObject({
      code: expect.stringMatching(/EISDIR|ENOTEMPTY|EEXIST|EPERM/),
    });
    expect(await readdir(dir)).toEqual(['k.json']);
  });

  it('validates the key and state before touching the disk', async () => {
    const session = new JsonFileSession(dir);
    await expect(session.save('', {})).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(session.save('k', { n: Number.NaN })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(session.save('é'.repeat(60), {})).rejects.toThrow(/too long for a file name/);
    await expect(stat(dir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('rejects an empty directory path', () => {
    expect(() => new JsonFileSession('')).toThrow(InvalidArgumentError);
  });
});
