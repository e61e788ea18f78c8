import { describe, expect, it, vi } from 'vitest';
import { SessionConflictError, SessionCorruptError } from '../errors.js';
import type { JsonObject } from '../json.js';
import { InMemorySession } from '../state/inMemorySession.js';
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

const segmentKeys = async (session: InMemorySession, key = 'run') =>
  (await session.list()).filter((k) => segmentOwner(k) === key);

describe('incremental checkpoints (sealed segments)', () => {
  it('writes each full block of messages once, and later saves only the head', async () => {
    const session = new CountingSession();
    const cp = checkpointer(session);
    await cp.save({ state: stateOf(msgs(0, 10)), call });
    // Two sealed blocks (0-3, 4-7) before the head; 8 and 9 stay in the head.
    expect(session.saved).toHaveLength(3);
    expect(session.saved.at(-1)).toBe('run');
    expect(session.saved.slice(0, 2).map(segmentOwner)).toEqual(['run', 'run']);
    const head = (await session.load('run'))!;
    expect(head['format']).toBe(CHECKPOINT_FORMAT);
    expect((head['state'] as { memory: { messages: unknown[] } }).memory.messages).toEqual(
      msgs(8, 10),
    );
    session.reset();
    await cp.save({ state: stateOf(msgs(0, 11)), call });
    expect(session.saved).toEqual(['run']);
    await cp.save({ state: stateOf(msgs(0, 12)), call });
    expect(session.saved).toHaveLength(3);
    expect(segmentOwner(session.saved[1]!)).toBe('run');
    expect(await loadCheckpoint(session, 'run')).toEqual({ state: stateOf(msgs(0, 12)), call });
  });

  it('reassembles the state on load, and a loaded run reuses its segments', async () => {
    const session = new CountingSession();
    await checkpointer(session).save({ state: stateOf(msgs(0, 9)), call });
    const fresh = checkpointer(session);
    expect(await fresh.load()).toEqual({ state: stateOf(msgs(0, 9)), call });
    session.reset();
    await fresh.save({ state: stateOf(msgs(0, 10)), call: { ...call, status: 'finished' } });
    expect(session.saved).toEqual(['run']);
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
    expect(await segmentKeys(session)).toHaveLength(1);
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

  it('segments every long messages array (a nested agent memory too) and leaves short ones', async () => {
    const session = new InMemorySession();
    const state: JsonObject = {
      ...stateOf(msgs(0, 5)),
      helper: { memory: { version: 1, messages: msgs(0, 8, 'h') } },
      notes: { messages: msgs(0, 2, 'n') },
    };
    await checkpointer(session).save({ state });
    expect((await segmentKeys(session)).length).toBe(3);
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
    // Its segment for block 4-7 is an orphan under a key of its own; deleteCheckpoint removes it.
    expect(await segmentKeys(session)).toHaveLength(3);
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
      // The same objects (a memory's checkpointDict()): nothing serialised but the new block.
      await cp.save({ state: stateOf(live.slice(0, 39)) });
      const blocks = () =>
        stringify.mock.calls.filter(([value]) => Array.isArray(value) && value.length === 4);
      expect(blocks()).toHaveLength(0);
      await cp.save({ state: stateOf(live) });
      expect(blocks()).toHaveLength(1);
      // Copies (a stateDict()): serialised and compared, still not written again.
      stringify.mockClear();
      session.reset();
      await cp.save({ state: stateOf(structuredClone(live)) });
      expect(blocks()).toHaveLength(10);
      expect(session.saved).toEqual(['run']);
    } finally {
      stringify.mockRestore();
    }
    expect((await loadCheckpoint(session, 'run'))?.state).toEqual(stateOf(live));
  });

  it('keeps the segments of a loaded run whose keys another version hashed differently', async () => {
    const session = new CountingSession();
    await checkpointer(session).save({ state: stateOf(msgs(0, 9)), call });
    // Rename the two segments as an older version's hash would have named them.
    const renamed = new Map<string, string>();
    for (const [i, key] of (await segmentKeys(session)).entries()) {
      const older = key.replace(/[0-9a-f]{16}$/, `${i}`.repeat(16));
      renamed.set(key, older);
      await session.save(older, (await session.load(key))!);
      await session.delete(key);
    }
    const head = (await session.load('run'))!;
    const sealed = head['sealed'] as { path: string[]; keys: string[] }[];
    const keys = sealed[0]!.keys.map((k) => renamed.get(k)!);
    await session.save('run', { ...head, sealed: [{ ...sealed[0]!, keys }] });
    const fresh = checkpointer(session);
    const loaded = await fresh.load();
    expect(loaded?.state).toEqual(stateOf(msgs(0, 9)));
    session.reset();
    // The loaded agent's memory holds copies of the messages: compared by their JSON, the
    // blocks are the same segments, neither written again nor deleted.
    await fresh.save({ state: stateOf(structuredClone(msgs(0, 10))), call });
    expect(session.saved).toEqual(['run']);
    expect(session.deleted).toEqual([]);
    expect((await session.load('run'))?.['sealed']).toEqual([{ ...sealed[0]!, keys }]);
    expect((await loadCheckpoint(session, 'run'))?.state).toEqual(stateOf(msgs(0, 10)));
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
      expect(segmentKeys(session)).resolves.toHaveLength(1),
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

  it('seals a new block under random keys for an object store, under its content hash for others', async () => {
    const blockKeys = async (session: InMemorySession) => {
      const cp = checkpointer(session);
      await cp.save({ state: stateOf(msgs(0, 5)), call });
      return segmentKeys(session);
    };
    const [text] = await blockKeys(new CountingSession());
    expect(text!.endsWith(`.0.${contentHash(JSON.stringify(msgs(0, 4)))}`)).toBe(true);
    const [one] = await blockKeys(new InMemorySession());
    const [two] = await blockKeys(new InMemorySession());
    expect(segmentOwner(one!)).toBe('run');
    expect(one).not.toBe(two);
    expect(one).not.toBe(text);
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
    expect(await segmentKeys(session)).toEqual(before);
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
    expect(session.saved).toEqual(['run']);
    expect((await loadCheckpoint(session, 'run'))?.call?.progress).toEqual({ step: 1 });
  });

  it('leaves a Checkpointer save whose live check says no unsaved', async () => {
    const session = new CountingSession();
    await checkpointer(session).save({ state: stateOf([]), call }, () => false);
    expect(session.saved).toEqual([]);
  });
});
