import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { SessionConflictError, SessionCorruptError } from '../errors.js';
import type { JsonObject } from '../json.js';
import { registerCheckpointBatch } from '../state/checkpointBatch.js';
import { InMemorySession } from '../state/inMemorySession.js';
import { JsonFileSession } from '../state/jsonFileSession.js';
import type { Session } from '../state/session.js';
import type { SaveOptions, VersionedSession } from '../state/versionedSession.js';
import { CHECKPOINT_FORMAT, type CheckpointCall } from './checkpoint.js';
import { Checkpointer } from './checkpointer.js';
import { checkDurableOptions } from './durableOptions.js';
import { DurableRun } from './durableRun.js';
import { contentHash, segmentOwner } from './segments.js';
import { deleteCheckpoint, loadCheckpoint } from './storedCheckpoint.js';
import { unfinishedRuns } from './unfinishedRuns.js';

/** An InMemorySession that records the keys of its saves, loads and deletes. */
class CountingSession extends InMemorySession {
  saved: string[] = [];
  loaded: string[] = [];
  deleted: string[] = [];
  override async save(key: string, state: JsonObject, options?: SaveOptions): Promise<void> {
    await super.save(key, state, options);
    this.saved.push(key);
  }
  override async load(key: string): Promise<JsonObject | undefined> {
    this.loaded.push(key);
    return super.load(key);
  }
  override async delete(key: string): Promise<void> {
    this.deleted.push(key);
    await super.delete(key);
  }
  reset(): void {
    this.saved = [];
    this.loaded = [];
    this.deleted = [];
  }
}

const msgs = (from: number, to: number, tag = 'm'): JsonObject[] =>
  Array.from({ length: to - from }, (_, i) => ({
    id: `${tag}${from + i}`,
    text: `${tag} ${from + i}`,
  }));

const stateOf = (messages: JsonObject[]): JsonObject => ({
  version: 1,
  agentName: 'a',
  memory: { version: 1, messages },
  toolkit: { groups: [] },
});

const call: CheckpointCall = {
  id: 'call-1',
  status: 'running',
  input: [],
  options: {},
  progress: { step: 1 },
  recoveries: 0,
};

function checkpointer(session: InMemorySession, segmentSize = 4, key = 'run'): Checkpointer {
  return new Checkpointer({ session, key, segmentSize });
}

const segmentKeys = async (session: Session, key = 'run') =>
  (await session.list()).filter((k) => segmentOwner(k) === key);

describe('incremental checkpoints (sealed segments)', () => {
  it('writes each full block of messages once, and each new message once in a piece', async () => {
    const session = new CountingSession();
    const cp = checkpointer(session);
    // The same message objects from save to save, as a memory's checkpointDict() gives them.
    const live = msgs(0, 12);
    await cp.save({ state: stateOf(live.slice(0, 10)), call });
    // Two sealed blocks (0-3, 4-7) and a piece (8-9) before the head, which holds no message.
    expect(session.saved).toHaveLength(4);
    expect(session.saved.at(-1)).toBe('run');
    expect(session.saved.slice(0, 3).map(segmentOwner)).toEqual(['run', 'run', 'run']);
    const head = (await session.load('run'))!;
    expect(head['format']).toBe(CHECKPOINT_FORMAT);
    expect((head['state'] as { memory: { messages: unknown[] } }).memory.messages).toEqual([]);
    session.reset();
    // Nothing new: the head alone.
    await cp.save({ state: stateOf(live.slice(0, 10)), call: { ...call, progress: { step: 2 } } });
    expect(session.saved).toEqual(['run']);
    // One new message: a piece holding it alone, then the head.
    await cp.save({ state: stateOf(live.slice(0, 11)), call });
    expect(session.saved).toHaveLength(3);
    expect((await session.load(session.saved[1]!))?.['messages']).toEqual(msgs(10, 11));
    // Block 8-11 fills: sealed, and the two pieces it replaces deleted after the head.
    session.reset();
    await cp.save({ state: stateOf(live.slice(0, 12)), call });
    expect(session.saved).toHaveLength(2);
    expect((await session.load(session.saved[0]!))?.['messages']).toEqual(msgs(8, 12));
    expect(session.deleted).toHaveLength(2);
    expect(await segmentKeys(session)).toHaveLength(3);
    expect(await loadCheckpoint(session, 'run')).toEqual({ state: stateOf(msgs(0, 12)), call });
  });

  it('reassembles the state on load, and a loaded run reuses its segments', async () => {
    const session = new CountingSession();
    await checkpointer(session).save({ state: stateOf(msgs(0, 9)), call });
    const fresh = checkpointer(session);
    expect(await fresh.load()).toEqual({ state: stateOf(msgs(0, 9)), call });
    session.reset();
    // The loaded blocks are kept (told by their JSON); the tail is written again, once.
    await fresh.save({ state: stateOf(msgs(0, 10)), call: { ...call, status: 'finished' } });
    expect(session.saved).toHaveLength(2);
    expect((await session.load(session.saved[0]!))?.['messages']).toEqual(msgs(8, 10));
    expect(session.deleted).toHaveLength(1);
    expect(await loadCheckpoint(session, 'run')).toEqual({
      state: stateOf(msgs(0, 10)),
      call: { ...call, status: 'finished' },
    });
  });

  it('gives changed blocks new keys and deletes the segments no head refers to any more', async () => {
    const session = new CountingSession();
    const cp = checkpointer(session);
    await cp.save({ state: stateOf(msgs(0, 12)), call });
    const before = await segmentKeys(session);
    expect(before).toHaveLength(3);
    // A compaction: a summary and the last messages, so every block's content changed.
    const compacted = [{ id: 'summary', text: 'summary' }, ...msgs(9, 14)];
    session.reset();
    await cp.save({ state: stateOf(compacted), call });
    expect(session.saved.at(-1)).toBe('run');
    expect(session.deleted.sort()).toEqual(before.sort());
    // Block 0-3 and a piece of 4-5.
    expect(await segmentKeys(session)).toHaveLength(2);
    expect((await loadCheckpoint(session, 'run'))?.state).toEqual(stateOf(compacted));
    // An edit inside a sealed block with the same ids is a change too.
    const edited = compacted.map((m, i) => (i === 1 ? { ...m, text: 'redacted' } : m));
    await cp.save({ state: stateOf(edited), call });
    expect((await loadCheckpoint(session, 'run'))?.state).toEqual(stateOf(edited));
    // memory.clear(): no segment left.
    await cp.save({ state: stateOf([]), call });
    expect(await segmentKeys(session)).toEqual([]);
    expect((await loadCheckpoint(session, 'run'))?.state).toEqual(stateOf([]));
  });

  it('keeps every messages array (a nested agent memory too) in segments', async () => {
    const session = new InMemorySession();
    const state: JsonObject = {
      ...stateOf(msgs(0, 5)),
      helper: { memory: { version: 1, messages: msgs(0, 8, 'h') } },
      notes: { messages: msgs(0, 2, 'n') },
    };
    await checkpointer(session).save({ state });
    // memory: a block and a piece; helper: two blocks; notes: a piece.
    expect((await segmentKeys(session)).length).toBe(5);
    expect(await loadCheckpoint(session, 'run')).toEqual({ state });
  });

  it('rejects with SessionCorruptError naming a missing or overwritten segment', async () => {
    const session = new InMemorySession();
    await checkpointer(session).save({ state: stateOf(msgs(0, 8)), call });
    const [first, second] = await segmentKeys(session);
    const kept = (await session.load(first!))!;
    await session.delete(first!);
    const missing = await loadCheckpoint(session, 'run').catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(SessionCorruptError);
    expect((missing as SessionCorruptError).path).toBe(first);
    expect((missing as Error).message).toContain(first);
    await session.save(first!, kept);
    await session.save(second!, { something: 'else' });
    await expect(checkpointer(session).load()).rejects.toThrow(second);
  });

  it('fences two writers: the loser conflicts, and its segments never clobber the winner', async () => {
    const session = new InMemorySession();
    await checkpointer(session).save({ state: stateOf(msgs(0, 6)), call });
    const a = checkpointer(session);
    const b = checkpointer(session);
    await Promise.all([a.load(), b.load()]);
    // Both seal block 4-7 at the same position, with different messages.
    const stateA = stateOf([...msgs(0, 6), ...msgs(6, 9, 'a')]);
    const stateB = stateOf([...msgs(0, 6), ...msgs(6, 9, 'b')]);
    const [savedA, savedB] = await Promise.allSettled([
      a.save({ state: stateA, call }),
      b.save({ state: stateB, call }),
    ]);
    expect(savedA.status).toBe('fulfilled');
    expect(savedB.status).toBe('rejected');
    expect((savedB as PromiseRejectedResult).reason).toBeInstanceOf(SessionConflictError);
    expect((await loadCheckpoint(session, 'run'))?.state).toEqual(stateA);
    // The loser keeps failing until it loads again.
    await expect(b.save({ state: stateB, call })).rejects.toBeInstanceOf(SessionConflictError);
    // Its block 4-7 and piece 8 are orphans under keys of their own (the winner's replaced
    // piece 4-5 was deleted); deleteCheckpoint removes them.
    expect(await segmentKeys(session)).toHaveLength(5);
    await deleteCheckpoint(session, 'run');
    expect(await session.list()).toEqual([]);
  });

  it('reads again when a writer replaced the segments while a reader read them', async () => {
    const session = new InMemorySession();
    const writer = checkpointer(session);
    await writer.save({ state: stateOf(msgs(0, 8)), call });
    const compacted = stateOf([{ id: 's', text: 'summary' }, ...msgs(8, 12)]);
    let raced = false;
    // The reader's view of the store: a compaction is saved between its head and its segments.
    const racing: VersionedSession = {
      loadVersioned: (key) => session.loadVersioned(key),
      save: (key, state, options) => session.save(key, state, options),
      delete: (key) => session.delete(key),
      list: () => session.list(),
      load: async (key) => {
        if (key !== 'run' && !raced) {
          raced = true;
          await writer.save({ state: compacted, call });
        }
        return session.load(key);
      },
    };
    expect((await loadCheckpoint(racing, 'run'))?.state).toEqual(compacted);
    expect(raced).toBe(true);
  });

  it('still reads plain state dicts and first-format checkpoints', async () => {
    const session = new InMemorySession();
    await session.save('plain', stateOf(msgs(0, 30)));
    expect(await loadCheckpoint(session, 'plain')).toEqual({ state: stateOf(msgs(0, 30)) });
    await session.save('old', {
      format: 'rxagent.checkpoint/1',
      state: stateOf(msgs(0, 3)),
      call: call as unknown as JsonObject,
    });
    expect(await checkpointer(session, 4, 'old').load()).toEqual({
      state: stateOf(msgs(0, 3)),
      call,
    });
    expect(await unfinishedRuns(session)).toEqual(['old']);
  });

  it('keeps segment keys out of unfinishedRuns (without loading them) and deletes them with the key', async () => {
    const session = new CountingSession();
    await checkpointer(session).save({ state: stateOf(msgs(0, 20)), call });
    await checkpointer(session, 4, 'done').save({
      state: stateOf(msgs(0, 9)),
      call: { ...call, status: 'finished' },
    });
    // A user key that merely contains the separator is not a segment.
    await session.save('run~seg.notes', stateOf([]));
    session.reset();
    expect(await unfinishedRuns(session)).toEqual(['run']);
    expect(session.loaded.sort()).toEqual(['done', 'run', 'run~seg.notes']);
    await deleteCheckpoint(session, 'run');
    expect(await session.list()).toEqual(
      [...(await segmentKeys(session, 'done')).sort(), 'done', 'run~seg.notes'].sort(),
    );
  });

  it('tells an unchanged block by its message objects, without serialising it again', async () => {
    const session = new CountingSession();
    const cp = checkpointer(session);
    const live = msgs(0, 40);
    await cp.save({ state: stateOf(live.slice(0, 38)) });
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      session.reset();
      // The same objects (a memory's checkpointDict()): no block serialised, not even the
      // new one (its key is this process's generation, not a hash of its content).
      await cp.save({ state: stateOf(live.slice(0, 39)) });
      const blocks = () =>
        stringify.mock.calls.filter(([value]) => Array.isArray(value) && value.length === 4);
      expect(blocks()).toHaveLength(0);
      await cp.save({ state: stateOf(live) });
      expect(blocks()).toHaveLength(0);
      // Copies (a stateDict()): serialised and compared with the blocks saved, not written again.
      stringify.mockClear();
      session.reset();
      await cp.save({ state: stateOf(structuredClone(live)) });
      expect(blocks()).toHaveLength(20);
      expect(session.saved).toEqual(['run']);
      // Once compared, known by their text: copies again cost one serialisation a block.
      stringify.mockClear();
      await cp.save({ state: stateOf(structuredClone(live)) });
      expect(blocks()).toHaveLength(10);
    } finally {
      stringify.mockRestore();
    }
    expect((await loadCheckpoint(session, 'run'))?.state).toEqual(stateOf(live));
  });

  it('continues a checkpoint of format 2 (written by the previous version), keeping its blocks', async () => {
    // Written by the previous version: blocks 0-3 and 4-7 under content-hash keys, the
    // unfilled block (8, 9) in the head.
    const dir = mkdtempSync(join(tmpdir(), 'rxagent-v2-'));
    try {
      cpSync(fileURLToPath(new URL('./fixtures/checkpoint-v2', import.meta.url)), dir, {
        recursive: true,
      });
      const session = new JsonFileSession(dir);
      const old = (await session.load('run'))!;
      expect(old['format']).toBe('rxagent.checkpoint/2');
      const before = await segmentKeys(session);
      expect(before).toHaveLength(2);
      const fresh = new Checkpointer({ session, key: 'run', segmentSize: 4 });
      const loaded = await fresh.load();
      expect(loaded).toEqual({ state: stateOf(msgs(0, 10)), call });
      // The loaded agent's memory holds copies: its blocks are the old segments (told by
      // their JSON), kept; a JsonFileSession's head keeps the unfilled block (no piece files).
      const messages = (loaded!.state['memory'] as { messages: JsonObject[] }).messages;
      await fresh.save({ state: stateOf([...structuredClone(messages), ...msgs(10, 11)]), call });
      expect(await segmentKeys(session)).toEqual(before);
      const head = (await session.load('run'))!;
      expect((head['state'] as { memory: { messages: unknown[] } }).memory.messages).toEqual(
        msgs(8, 11),
      );
      expect((await session.load('run'))?.['format']).toBe(CHECKPOINT_FORMAT);
      expect((await loadCheckpoint(session, 'run'))?.state).toEqual(stateOf(msgs(0, 11)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('checks segmentSize', () => {
    const session = new InMemorySession();
    expect(() => checkDurableOptions('a', { session, key: 'k', segmentSize: 0 })).toThrow(
      /durable\.segmentSize must be a whole number ≥ 1 \(got 0\)/,
    );
    expect(() => checkDurableOptions('a', { session, key: 'k', segmentSize: 2.5 })).toThrow(
      /segmentSize/,
    );
    expect(checkDurableOptions('a', { session, key: 'k', segmentSize: 8 }).segmentSize).toBe(8);
  });

  it('hashes content into 16 hex digits that differ for different texts', () => {
    expect(contentHash('[1]')).toMatch(/^[0-9a-f]{16}$/);
    expect(contentHash('[1]')).toBe(contentHash('[1]'));
    expect(contentHash('[1]')).not.toBe(contentHash('[2]'));
    expect(contentHash('ab')).not.toBe(contentHash('ba'));
  });
});

describe('a session with a checkpoint batch', () => {
  it('gets each checkpoint in one call: its new segments, the head at its version, the deletes', async () => {
    const inner = new InMemorySession();
    const calls: [number, number, number][] = [];
    const session: VersionedSession = {
      save: (k, s, o) => inner.save(k, s, o),
      loadVersioned: (k) => inner.loadVersioned(k),
      load: (k) => inner.load(k),
      delete: (k) => inner.delete(k),
      list: () => inner.list(),
    };
    const save = vi.spyOn(session, 'save');
    registerCheckpointBatch(
      session,
      {
        async saveCheckpoint(writes, key, head, expectedVersion, deletes) {
          calls.push([writes.length, expectedVersion, deletes.length]);
          for (const write of writes) await inner.save(write.key, write.value);
          await inner.save(key, head, { expectedVersion });
          for (const gone of deletes) await inner.delete(gone);
        },
      },
      () => true,
    );
    const cp = checkpointer(session as InMemorySession);
    const live = msgs(0, 8);
    await cp.save({ state: stateOf(live.slice(0, 3)), call });
    await cp.save({ state: stateOf(live.slice(0, 5)), call });
    // The second: block 0-3 and a piece of 4; the piece of 0-2 deleted.
    expect(calls).toEqual([
      [1, 0, 0],
      [2, 1, 1],
    ]);
    expect(save).not.toHaveBeenCalled();
    expect(await segmentKeys(inner)).toHaveLength(2);
    expect(await loadCheckpoint(inner, 'run')).toEqual({ state: stateOf(msgs(0, 5)), call });
  });
});

describe('saves an InMemorySession takes at once (saveNow)', () => {
  it('writes segments and head at once, in order, and deletes dropped segments at once', () => {
    const session = new InMemorySession();
    const cp = checkpointer(session);
    // The first save reads the version (none yet) at once too.
    expect(cp.saveNow({ state: stateOf(msgs(0, 10)), call })).toBe(true);
    expect(cp.synced).toBe(true);
    expect(cp.saveNow({ state: stateOf(msgs(0, 13)), call })).toBe(true);
    const compacted = [{ id: 'summary', text: 'summary' }, ...msgs(9, 14)];
    expect(cp.saveNow({ state: stateOf(compacted), call })).toBe(true);
    return Promise.all([
      expect(segmentKeys(session)).resolves.toHaveLength(2),
      expect(loadCheckpoint(session, 'run')).resolves.toEqual({ state: stateOf(compacted), call }),
    ]);
  });

  it('throws a conflict at once, changing nothing, and keeps failing until it loads', async () => {
    const session = new InMemorySession();
    const a = checkpointer(session);
    const b = checkpointer(session);
    a.saveNow({ state: stateOf(msgs(0, 2)), call });
    b.saveNow({ state: stateOf(msgs(0, 3)), call });
    expect(() => a.saveNow({ state: stateOf(msgs(0, 9, 'a')), call })).toThrow(
      SessionConflictError,
    );
    expect(() => a.saveNow({ state: stateOf(msgs(0, 2)), call })).toThrow(SessionConflictError);
    expect((await loadCheckpoint(session, 'run'))?.state).toEqual(stateOf(msgs(0, 3)));
    await a.load();
    expect(a.saveNow({ state: stateOf(msgs(0, 4)), call })).toBe(true);
    expect((await loadCheckpoint(session, 'run'))?.state).toEqual(stateOf(msgs(0, 4)));
  });

  it('does nothing (false) for a session whose own methods must run, or while a save() is in flight', async () => {
    const counting = new CountingSession();
    expect(checkpointer(counting).saveNow({ state: stateOf([]), call })).toBe(false);
    const spied = new InMemorySession();
    const save = vi.spyOn(spied, 'save');
    expect(checkpointer(spied).saveNow({ state: stateOf([]), call })).toBe(false);
    expect(save).not.toHaveBeenCalled();
    const session = new InMemorySession();
    const cp = checkpointer(session);
    const queued = cp.save({ state: stateOf(msgs(0, 1)), call });
    expect(cp.saveNow({ state: stateOf(msgs(0, 2)), call })).toBe(false);
    await queued;
    expect(cp.saveNow({ state: stateOf(msgs(0, 2)), call })).toBe(true);
    // A failed save() settles too: the next one is taken at once again.
    const other = checkpointer(session);
    await other.load();
    cp.saveNow({ state: stateOf(msgs(0, 3)), call });
    await expect(other.save({ state: stateOf([]), call })).rejects.toBeInstanceOf(
      SessionConflictError,
    );
    expect(() => other.saveNow({ state: stateOf([]), call })).toThrow(SessionConflictError);
  });

  it('keys the blocks a process seals by its generation, one run in a head of any length', async () => {
    const session = new InMemorySession();
    const cp = checkpointer(session);
    await cp.save({ state: stateOf(msgs(0, 41)), call });
    const head = (await session.load('run'))!;
    const [list] = head['sealed'] as JsonObject[];
    const blocks = list!['blocks'] as { tag: string; count: number }[];
    expect(blocks).toEqual([{ tag: expect.stringMatching(/^[0-9a-f]{16}$/), count: 10 }]);
    expect(list!['pieces']).toEqual([`40.${(list!['pieces'] as string[])[0]!.slice(3)}`]);
    expect(list!['size']).toBe(4);
    // A replaced block starts a new generation, so no key is used for two contents.
    const edited = msgs(0, 41).map((m, i) => (i === 5 ? { ...m, text: 'redacted' } : m));
    await cp.save({ state: stateOf(edited), call });
    const again = ((await session.load('run'))!['sealed'] as JsonObject[])[0]!;
    const runs = again['blocks'] as { tag: string; count: number }[];
    expect(runs.map((run) => run.count)).toEqual([1, 1, 8]);
    expect(runs[1]!.tag).not.toBe(blocks[0]!.tag);
    expect(runs[2]!.tag).toBe(blocks[0]!.tag);
    expect((await loadCheckpoint(session, 'run'))?.state).toEqual(stateOf(edited));
    // Another process (a checkpointer of its own) seals under another generation.
    const other = checkpointer(new InMemorySession());
    await other.save({ state: stateOf(msgs(0, 4)), call });
    expect(await segmentKeys(session)).not.toContain(
      (await segmentKeys(other.session as InMemorySession))[0],
    );
  });

  it('keeps the keys of a loaded run whose blocks are unchanged, and reads them back whole', async () => {
    const session = new InMemorySession();
    checkpointer(session).saveNow({ state: stateOf(msgs(0, 9)), call });
    const before = await segmentKeys(session);
    const fresh = checkpointer(session);
    const loaded = await fresh.load();
    // The loaded messages are copies: their blocks are told by their JSON, not identity.
    const messages = (loaded!.state['memory'] as { messages: JsonObject[] }).messages;
    expect(
      fresh.saveNow({ state: stateOf([...structuredClone(messages), ...msgs(9, 10)]), call }),
    ).toBe(true);
    // Blocks 0-3 and 4-7 kept; the piece of 8 replaced by one of 8-9.
    const after = await segmentKeys(session);
    expect(after.filter((k) => before.includes(k))).toHaveLength(2);
    expect(after).toHaveLength(3);
    expect((await loadCheckpoint(session, 'run'))?.state).toEqual(stateOf(msgs(0, 10)));
  });

  it('makes a durable checkpoint emit at once on an InMemorySession, and fail at once after a conflict', async () => {
    const runOn = (session: InMemorySession, key = 'run') =>
      new DurableRun(
        new Checkpointer({ session, key, segmentSize: 4 }),
        () => stateOf(msgs(0, 5)),
        { id: 'call-1', input: [], options: {} },
        undefined,
      );
    const session = new InMemorySession();
    const events: string[] = [];
    runOn(session)
      .checkpoint({ step: 1 })
      .subscribe({ next: () => events.push('saved'), complete: () => events.push('done') });
    expect(events).toEqual(['saved', 'done']);
    // Another writer advanced the run: the error at once, and then for every later checkpoint.
    const loser = runOn(session);
    const errors: unknown[] = [];
    loser.checkpoint({ step: 2 }).subscribe({ error: (error) => errors.push(error) });
    expect(errors).toHaveLength(0);
    // The loser's first save read the version on its way (it had none), so saved; now conflict.
    runOn(session).checkpoint({ step: 3 }).subscribe();
    loser.checkpoint({ step: 4 }).subscribe({ error: (error) => errors.push(error) });
    loser.finish().subscribe({ error: (error) => errors.push(error) });
    expect(errors).toHaveLength(2);
    expect(errors[0]).toBeInstanceOf(SessionConflictError);
    expect(errors[1]).toBe(errors[0]);
    expect(loser.failed).toBe(true);
    // A session whose own save runs: the value once the save is done, not at once.
    const counting = new CountingSession();
    const later: string[] = [];
    runOn(counting)
      .checkpoint(undefined)
      .subscribe(() => later.push('saved'));
    expect(later).toEqual([]);
    await vi.waitFor(() => expect(later).toEqual(['saved']));
  });
});

describe('a stopped durable call (its caller left)', () => {
  const runOn = (session: InMemorySession) =>
    new DurableRun(
      new Checkpointer({ session, key: 'run', segmentSize: 4 }),
      () => stateOf(msgs(0, 2)),
      { id: 'call-1', input: [], options: {} },
      undefined,
    );

  it('fails every later checkpoint at once with the reason, saving nothing', async () => {
    const session = new InMemorySession();
    const run = runOn(session);
    run.checkpoint({ step: 1 }).subscribe();
    const reason = new DOMException('gone', 'AbortError');
    run.stop(reason);
    const errors: unknown[] = [];
    run.checkpoint({ step: 2 }).subscribe({ error: (error) => errors.push(error) });
    run.finish().subscribe({ error: (error) => errors.push(error) });
    expect(errors).toEqual([reason, reason]);
    expect(run.failed).toBe(true);
    expect((await loadCheckpoint(session, 'run'))?.call?.progress).toEqual({ step: 1 });
  });

  it('drops a checkpoint still queued behind another save when its turn comes', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const session = new CountingSession();
    const started = vi.fn();
    const save = session.save.bind(session);
    session.save = async (key, state, options) => {
      started();
      await gate;
      return save(key, state, options);
    };
    const run = runOn(session);
    const events: unknown[] = [];
    run.checkpoint({ step: 1 }).subscribe({ complete: () => events.push('first saved') });
    run.checkpoint({ step: 2 }).subscribe({ error: (error) => events.push(error) });
    await vi.waitFor(() => expect(started).toHaveBeenCalled());
    run.stop('gone'); // the first save is in flight, the second waits its turn
    open();
    await vi.waitFor(() => expect(events).toEqual(['first saved', 'gone']));
    expect(session.saved.filter((k) => k === 'run')).toEqual(['run']);
    expect((await loadCheckpoint(session, 'run'))?.call?.progress).toEqual({ step: 1 });
  });

  it('leaves a Checkpointer save whose live check says no unsaved', async () => {
    const session = new CountingSession();
    await checkpointer(session).save({ state: stateOf([]), call }, () => false);
    expect(session.saved).toEqual([]);
  });
});
