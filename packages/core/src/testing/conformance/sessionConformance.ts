import { lastValueFrom } from 'rxjs';
import { segmentOwner } from '../../durable/segments.js';
import { loadCheckpoint } from '../../durable/storedCheckpoint.js';
import { unfinishedRuns } from '../../durable/unfinishedRuns.js';
import { InvalidArgumentError, SessionConflictError } from '../../errors.js';
import type { JsonObject } from '../../json.js';
import { userMsg } from '../../message/msg.js';
import { textOf } from '../../message/readers.js';
import type { Session } from '../../state/session.js';
import { isVersionedSession, type SaveOptions } from '../../state/versionedSession.js';
import { hostileKeys, roundTripStates } from './conformanceData.js';
import { NotebookAgent } from './notebookAgent.js';
import { vitestApi } from './vitestApi.js';

/** Options of {@link sessionConformance}. */
export interface SessionConformanceOptions {
  /**
   * The number of turns of the long durable conversation whose growth is checked (default
   * 1,000). Lower it only for a store too slow for that many saves in a test.
   */
  readonly turns?: number;
  /** The time limit of each test, in ms (default 120,000: a busy machine, a remote store). */
  readonly timeoutMs?: number;
  /**
   * The longest key (in UTF-16 code units) the store holds, when it caps them (a file name
   * does): the suite then checks that each longer hostile key is refused with
   * `InvalidArgumentError`, storing nothing. Default: no cap (a 1 KB key must work).
   */
  readonly maxKeyLength?: number;
}

/** What `makeSession` may return: a session, and optionally how to release it. */
type Closable = Session & { close?: () => unknown };

/**
 * Defines the vitest suite every `Session` passes, as `describe(name, …)`: byte-identical
 * round trips, `undefined` for a missing key, `delete` and `list` (sorted as JavaScript
 * sorts strings), hostile keys (`../x`, SQL metacharacters, 1 KB, unicode, NUL) kept apart,
 * and, for a `VersionedSession`, compare-and-set (50 concurrent writers: exactly one winner
 * per version). Then durable runs on it: a run stopped mid-call is recovered by a fresh
 * agent, and over a long durable conversation the bytes written per checkpoint stay flat
 * and the stored size grows in proportion to the conversation (sealed segments written once).
 *
 * `makeSession` is called once per test and must return an empty session (a fresh
 * directory, database or key prefix); a `close()` it has is called after the test.
 * Call it at the top level of a test file run by vitest.
 *
 * @example
 * ```ts
 * import { InMemorySession } from '@rxagent/core';
 * import { sessionConformance } from '@rxagent/core/testing';
 *
 * sessionConformance('InMemorySession', () => new InMemorySession());
 * ```
 */
export function sessionConformance(
  name: string,
  makeSession: () => Session | Promise<Session>,
  options: SessionConformanceOptions = {},
): void {
  const { describe, it, expect, afterEach } = vitestApi('sessionConformance');
  const turns = options.turns ?? 1000;
  const timeout = options.timeoutMs ?? 120_000;
  const opened: Closable[] = [];
  const open = async (): Promise<Closable> => {
    const session = (await makeSession()) as Closable;
    opened.push(session);
    return session;
  };

  describe(`${name} (session conformance)`, () => {
    afterEach(async () => {
      for (const session of opened.splice(0)) await session.close?.();
    });

    it('round-trips states byte for byte, and hands out fresh copies', { timeout }, async () => {
      const session = await open();
      for (const [i, state] of roundTripStates().entries()) {
        const key = `state-${i}`;
        await session.save(key, state);
        const loaded = await session.load(key);
        expect(JSON.stringify(loaded)).toBe(JSON.stringify(state));
        // Saved again as loaded: still the same bytes.
        await session.save(key, loaded as JsonObject);
        const again = await session.load(key);
        expect(JSON.stringify(again)).toBe(JSON.stringify(state));
        (again as JsonObject)['changed'] = true;
        expect(JSON.stringify(await session.load(key))).toBe(JSON.stringify(state));
      }
    });

    it('changing a state after save() does not change what was saved', { timeout }, async () => {
      const session = await open();
      const state: JsonObject = { list: [1, 2], nested: { a: 'x' } };
      await session.save('k', state);
      (state['list'] as number[]).push(3);
      expect(await session.load('k')).toEqual({ list: [1, 2], nested: { a: 'x' } });
    });

    it('loads undefined for a missing key, and replaces on save', { timeout }, async () => {
      const session = await open();
      expect(await session.load('missing')).toBeUndefined();
      if (isVersionedSession(session))
        expect(await session.loadVersioned('missing')).toBeUndefined();
      await session.save('k', { n: 1 });
      await session.save('k', { n: 2 });
      expect(await session.load('k')).toEqual({ n: 2 });
      expect(await session.list()).toEqual(['k']);
    });

    it('deletes a key (a missing one too) and lists keys sorted as JavaScript sorts strings', {
      timeout,
    }, async () => {
      const session = await open();
      const keys = ['b', 'B', 'a', 'a b', 'é', 'z', '😀', '\uFFFD', '10', '9', '_', '%'];
      for (const key of keys) await session.save(key, { key });
      expect(await session.list()).toEqual([...keys].sort());
      await session.delete('a');
      await session.delete('never-saved');
      expect(await session.load('a')).toBeUndefined();
      expect(await session.list()).toEqual(keys.filter((k) => k !== 'a').sort());
      expect(await session.load('B')).toEqual({ key: 'B' });
    });

    it('keeps hostile keys apart, as data', { timeout }, async () => {
      const session = await open();
      const cap = options.maxKeyLength ?? Number.POSITIVE_INFINITY;
      const keys = hostileKeys().filter((key) => key.length <= cap);
      for (const key of hostileKeys().filter((k) => k.length > cap)) {
        await expect(session.save(key, { key })).rejects.toBeInstanceOf(InvalidArgumentError);
      }
      for (const key of keys) await session.save(key, { key });
      for (const key of keys) expect(await session.load(key)).toEqual({ key });
      expect(await session.list()).toEqual([...keys].sort());
      await session.delete(keys[0] as string);
      expect(await session.load(keys[0] as string)).toBeUndefined();
      expect(await session.list()).toEqual(keys.slice(1).sort());
    });

    it('rejects a bad key or a state that is not JSON, storing nothing', { timeout }, async () => {
      const session = await open();
      await expect(session.save('', { a: 1 })).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(session.load('')).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(session.save('bad', { n: Number.NaN })).rejects.toBeInstanceOf(
        InvalidArgumentError,
      );
      await expect(
        session.save('bad', { when: new Date() } as unknown as JsonObject),
      ).rejects.toBeInstanceOf(InvalidArgumentError);
      expect(await session.list()).toEqual([]);
    });

    describe('versioned', () => {
      it('counts versions and refuses a stale one, changing nothing', { timeout }, async () => {
        const session = await open();
        if (!isVersionedSession(session)) return;
        await session.save('k', { n: 1 }, { expectedVersion: 0 });
        expect(await session.loadVersioned('k')).toEqual({ state: { n: 1 }, version: 1 });
        await session.save('k', { n: 2 });
        expect((await session.loadVersioned('k'))?.version).toBe(2);
        const stale = session.save('k', { n: 99 }, { expectedVersion: 1 });
        await expect(stale).rejects.toBeInstanceOf(SessionConflictError);
        await expect(session.save('new', { n: 1 }, { expectedVersion: 3 })).rejects.toBeInstanceOf(
          SessionConflictError,
        );
        expect(await session.loadVersioned('k')).toEqual({ state: { n: 2 }, version: 2 });
        expect(await session.load('new')).toBeUndefined();
        await session.save('k', { n: 3 }, { expectedVersion: 2 });
        expect(await session.loadVersioned('k')).toEqual({ state: { n: 3 }, version: 3 });
        await expect(
          session.save('k', { n: 4 }, { expectedVersion: -1 } as SaveOptions),
        ).rejects.toBeInstanceOf(InvalidArgumentError);
        // A deleted key starts over at version 0.
        await session.delete('k');
        await session.save('k', { n: 5 }, { expectedVersion: 0 });
        expect((await session.loadVersioned('k'))?.version).toBe(1);
      });

      it('lets exactly one of 50 concurrent writers win each version', { timeout }, async () => {
        const session = await open();
        if (!isVersionedSession(session)) return;
        for (let version = 0; version < 4; version++) {
          const writes = Array.from({ length: 50 }, (_, writer) =>
            session.save('race', { version, writer }, { expectedVersion: version }),
          );
          const results = await Promise.allSettled(writes);
          const winners = results.flatMap((r, writer) =>
            r.status === 'fulfilled' ? [writer] : [],
          );
          expect(winners).toHaveLength(1);
          for (const result of results) {
            if (result.status === 'rejected')
              expect(result.reason).toBeInstanceOf(SessionConflictError);
          }
          expect(await session.loadVersioned('race')).toEqual({
            state: { version, writer: winners[0] as number },
            version: version + 1,
          });
        }
      });
    });

    it('holds a durable run: a call stopped mid-way is recovered by a fresh agent', {
      timeout,
    }, async () => {
      const session = await open();
      const durable = { session, key: 'run-1' };
      const first = new NotebookAgent(durable);
      expect(await first.reply('hello')).toMatchObject({
        content: [{ type: 'text', text: 'noted: hello' }],
      });
      // A process that stops after its checkpoint: unsubscribed, the run stays unfinished.
      first.hang = true;
      const call = first.call(userMsg('second')).subscribe({ error: () => undefined });
      await until(async () => {
        const saved = (await loadCheckpoint(session, 'run-1'))?.call;
        return saved?.status === 'running' && saved.progress !== undefined;
      });
      call.unsubscribe();
      expect(await unfinishedRuns(session)).toEqual(['run-1']);

      const fresh = new NotebookAgent(durable);
      const reply = await lastValueFrom(fresh.recover());
      expect(textOf(reply)).toBe('recovered: second');
      expect(fresh.memory.messages().map(textOf)).toEqual([
        'hello',
        'noted: hello',
        'second',
        'recovered: second',
      ]);
      expect(await unfinishedRuns(session)).toEqual([]);
      // The recovered agent goes on; another fresh agent sees the whole conversation.
      await fresh.reply('third');
      const later = new NotebookAgent(durable);
      await lastValueFrom(later.recover(), { defaultValue: undefined });
      expect(later.memory.messages()).toHaveLength(6);
    });

    it(`keeps a ${turns}-turn durable conversation's checkpoints flat and its size proportional`, {
      timeout,
    }, async () => {
      const inner = await open();
      const counter = countingSession(inner);
      const agent = new NotebookAgent({ session: counter.session, key: 'long' });
      const headBytes: number[] = [];
      const indexBytes: number[] = [];
      let storedAtHalf = 0;
      for (let turn = 1; turn <= turns; turn++) {
        const before = counter.headBytes;
        const index = counter.indexBytes;
        const saves = counter.headSaves;
        await agent.reply(`turn ${turn}: ${'lorem ipsum '.repeat(4)}`);
        const count = Math.max(1, counter.headSaves - saves);
        headBytes.push((counter.headBytes - before) / count);
        indexBytes.push((counter.indexBytes - index) / count);
        if (turn === turns / 2) storedAtHalf = await storedSize(inner);
      }
      const tenth = Math.max(1, Math.floor(turns / 10));
      const early = average(headBytes.slice(tenth, 2 * tenth));
      const late = average(headBytes.slice(-tenth));
      // Flat: a checkpoint late in the conversation writes about what one early does, but for
      // its list of the sealed segments' keys (one short key per sealed block of messages).
      const lateIndex = average(indexBytes.slice(-tenth));
      expect(
        (late - lateIndex) / (early - average(indexBytes.slice(tenth, 2 * tenth))),
      ).toBeLessThan(1.5);
      const segments = (await inner.list()).filter((k) => segmentOwner(k) === 'long');
      const longestKey = Math.max(...segments.map((k) => Buffer.byteLength(k)));
      expect(lateIndex).toBeLessThan(segments.length * (longestKey + 8) + 64);
      // Every message was written at most twice: once in a piece of the tail when it was new,
      // once in its sealed block (pieces are deleted once sealed), never again.
      const stored = await storedSize(inner);
      expect(counter.segmentBytes).toBeLessThan(stored * 2.5);
      // Proportional: twice the turns, about twice the bytes.
      expect(stored / storedAtHalf).toBeGreaterThan(1.7);
      expect(stored / storedAtHalf).toBeLessThan(2.3);
      expect(segments.length).toBeGreaterThan(turns / 16);
      const loaded = await loadCheckpoint(inner, 'long');
      const messages = (loaded?.state['memory'] as { messages: unknown[] } | undefined)?.messages;
      expect(messages).toHaveLength(2 * turns);
    });
  });
}

async function until(check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('sessionConformance: timed out waiting for a checkpoint');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function average(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);
}

/** The JSON bytes of everything `session` holds. */
async function storedSize(session: Session): Promise<number> {
  let size = 0;
  for (const key of await session.list()) {
    size += Buffer.byteLength(key) + Buffer.byteLength(JSON.stringify(await session.load(key)));
  }
  return size;
}

/** `inner`, counting the JSON bytes its saves write: heads and sealed segments apart. */
function countingSession(inner: Session) {
  const counter = {
    headBytes: 0,
    headSaves: 0,
    /** The bytes of the heads' lists of sealed segments. */
    indexBytes: 0,
    segmentBytes: 0,
    session: undefined as unknown as Session,
  };
  const session: Session & { loadVersioned?: unknown } = {
    save: (key, state, options?: SaveOptions) => {
      const bytes = Buffer.byteLength(key) + Buffer.byteLength(JSON.stringify(state));
      if (segmentOwner(key) === undefined) {
        counter.headBytes += bytes;
        counter.headSaves++;
        const sealed = state['sealed'];
        if (sealed !== undefined) counter.indexBytes += Buffer.byteLength(JSON.stringify(sealed));
      } else counter.segmentBytes += bytes;
      return (inner.save as (k: string, s: JsonObject, o?: SaveOptions) => Promise<void>)(
        key,
        state,
        options,
      );
    },
    load: (key) => inner.load(key),
    delete: (key) => inner.delete(key),
    list: () => inner.list(),
  };
  if (isVersionedSession(inner)) session.loadVersioned = (key: string) => inner.loadVersioned(key);
  counter.session = session;
  return counter;
}
