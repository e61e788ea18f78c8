import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors.js';
import type { JsonObject } from '../json.js';
import { InMemorySession } from './inMemorySession.js';
import { JsonFileSession } from './jsonFileSession.js';
import { assertJsonState, assertSessionKey, type Session } from './session.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const stores: Array<[string, () => Promise<Session>]> = [
  ['InMemorySession', async () => new InMemorySession()],
  [
    'JsonFileSession',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'rxagent-session-'));
      dirs.push(dir);
      return new JsonFileSession(join(dir, 'sessions'));
    },
  ],
];

describe.each(stores)('Session contract: %s', (_name, create) => {
  it('loads what was saved, as an equal but separate object', async () => {
    const session = await create();
    const state: JsonObject = {
      version: 1,
      memory: { messages: [{ text: 'hi', n: 1.5, ok: true, x: null }] },
    };
    await session.save('alice', state);
    const loaded = await session.load('alice');
    expect(loaded).toEqual(state);
    expect(loaded).not.toBe(state);
  });

  it('resolves undefined for a key that was never saved', async () => {
    const session = await create();
    expect(await session.load('nobody')).toBeUndefined();
  });

  it('replaces the state on a second save', async () => {
    const session = await create();
    await session.save('k', { v: 1 });
    await session.save('k', { v: 2 });
    expect(await session.load('k')).toEqual({ v: 2 });
  });

  it('deletes a key, and deleting a missing key is not an error', async () => {
    const session = await create();
    await session.save('k', { v: 1 });
    await session.delete('k');
    await session.delete('k');
    await session.delete('never-saved');
    expect(await session.load('k')).toBeUndefined();
    expect(await session.list()).toEqual([]);
  });

  it('lists keys sorted, round-tripping any characters', async () => {
    const session = await create();
    const keys = [
      'zed',
      'Alice',
      'alice',
      '../../etc/passwd',
      'a.b',
      'ünïcødé 🎉',
      '%41',
      'con',
      '\uFEFFbom',
    ];
    for (const key of keys) await session.save(key, { key });
    expect(await session.list()).toEqual([...keys].sort());
    for (const key of keys) expect(await session.load(key)).toEqual({ key });
  });

  it('rejects an empty key with InvalidArgumentError', async () => {
    const session = await create();
    await expect(session.save('', {})).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(session.load('')).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(session.delete('')).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('rejects a state that JSON cannot hold, naming the value, and keeps the old state', async () => {
    const session = await create();
    await session.save('k', { v: 1 });
    const bad = { v: 2, nested: { when: new Date(0) } } as unknown as JsonObject;
    await expect(session.save('k', bad)).rejects.toThrow(/state\.nested\.when is a Date/);
    expect(await session.load('k')).toEqual({ v: 1 });
  });
});

describe('assertSessionKey', () => {
  it('accepts any non-empty well-formed string', () => {
    expect(() => assertSessionKey('a/b\\c..', 'test')).not.toThrow();
  });

  it('rejects non-strings, empty strings and unpaired surrogates', () => {
    expect(() => assertSessionKey(42, 'test')).toThrow(InvalidArgumentError);
    expect(() => assertSessionKey('', 'test')).toThrow(/non-empty string/);
    expect(() => assertSessionKey('a\uD800b', 'test')).toThrow(/unpaired UTF-16 surrogate/);
  });
});

describe('assertJsonState', () => {
  it('accepts plain JSON and properties set to undefined', () => {
    expect(() =>
      assertJsonState({ a: [1, 'x', null, { b: false }], c: undefined }, 'test'),
    ).not.toThrow();
    expect(() =>
      assertJsonState(Object.assign(Object.create(null), { a: 1 }), 'test'),
    ).not.toThrow();
  });

  it.each([
    ['an array', [1], /state is an array, not a JSON object/],
    ['null', null, /state is null/],
    ['NaN', { a: Number.NaN }, /state\.a is NaN/],
    ['Infinity in an array', { a: [1, Number.POSITIVE_INFINITY] }, /state\.a\[1\] is Infinity/],
    ['undefined in an array', { a: [undefined] }, /state\.a\[0\] is undefined/],
    ['a function', { f: () => 1 }, /state\.f is a function/],
    ['a bigint', { n: 1n }, /state\.n is a bigint/],
    ['a Map', { m: new Map() }, /state\.m is a Map, not a plain object/],
  ])('rejects %s, naming the path', (_label, state, message) => {
    expect(() => assertJsonState(state, 'test')).toThrow(message);
  });

  it('rejects a cycle but accepts a shared (acyclic) object', () => {
    const shared = { x: 1 };
    expect(() => assertJsonState({ a: shared, b: shared }, 'test')).not.toThrow();
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = { back: cyclic };
    expect(() => assertJsonState(cyclic, 'test')).toThrow(/state\.self\.back refers back .* cycle/);
  });
});
