import type { JsonObject } from '../json.js';
import { checkpointBatchOf } from '../state/checkpointBatch.js';
import { JsonFileSession } from '../state/jsonFileSession.js';
import type { Session } from '../state/session.js';
import { syncStoreOf } from '../state/syncStore.js';
import { isVersionedSession, type VersionedState } from '../state/versionedSession.js';
import { type Checkpoint, headJson, readHead } from './checkpoint.js';
import { DEFAULT_SEGMENT_SIZE, type DurableOptions } from './durableOptions.js';
import { Segments, type SplitState } from './segments.js';
import { loadStored } from './storedCheckpoint.js';

/**
 * The saves of one durable agent, in order: one at a time, each with the version the
 * previous one left (versioned sessions), so a process that lost the run to another fails
 * its next save with `SessionConflictError` instead of overwriting the other's progress.
 * The version is learnt by `load()` or, before an agent's first save in this process, read
 * from the session.
 *
 * A save writes what is new since the last one: the state's `messages` arrays are kept in
 * segments (sealed blocks of `segmentSize` messages, and pieces of the tail after them, see
 * `Segments`), each written once under its own key before the head that refers to them (so
 * a head never refers to a missing segment); the head holds the rest of the state, the
 * segments' keys and the call. After a head is saved, the segments the previous head
 * referred to and this one does not (memory compacted or cleared, pieces sealed into a
 * block) are deleted.
 */
export class Checkpointer {
  readonly session: Session;
  readonly key: string;
  readonly #segments: Segments;
  #version: number | undefined;
  /** The segment keys of the last head this process saved or loaded. */
  #referenced: ReadonlySet<string> = new Set();
  #tail: Promise<void> = Promise.resolve();
  /** Saves queued by `save()` and not settled yet (`saveNow()` waits for none). */
  #pending = 0;

  constructor(options: DurableOptions) {
    this.session = options.session;
    this.key = options.key;
    // A JsonFileSession writes (and deletes) a file per key: a piece would cost a file each,
    // more than its bytes save, so its heads keep the unfilled block as before.
    this.#segments = new Segments(
      options.key,
      options.segmentSize ?? DEFAULT_SEGMENT_SIZE,
      options.session instanceof JsonFileSession,
    );
  }

  /** Whether this process loaded or saved the key (so it knows the version). */
  get synced(): boolean {
    return this.#version !== undefined;
  }

  /** The checkpoint under the key (and its version), or `undefined` when there is none. */
  async load(): Promise<Checkpoint | undefined> {
    const loaded = await loadStored(this.session, this.key);
    this.#segments.reset();
    this.#version = loaded?.version ?? 0;
    if (loaded === undefined) {
      this.#referenced = new Set();
      return undefined;
    }
    this.#referenced = new Set(loaded.blocks.keys());
    this.#segments.stored(loaded.blocks.keys());
    this.#segments.learn(loaded.head.sealed, loaded.blocks);
    return loaded.checkpoint;
  }

  /**
   * Saves `checkpoint` after the saves before it and resolves with `true`; rejects with the
   * session's error. When `live` says no once its turn comes (its call was cancelled
   * meanwhile), it resolves with `false` without saving.
   */
  save(checkpoint: Checkpoint, live: () => boolean = always): Promise<boolean> {
    this.#pending++;
    const next = this.#tail.then(() => (live() ? this.#save(checkpoint).then(saved) : false));
    this.#tail = next.then(this.#settled, this.#settled);
    return next;
  }

  /**
   * Saves `checkpoint` at once when the session can (an `InMemorySession`'s own methods, see
   * `SyncStore`) and no save is still in flight: the same saves in the same order as
   * `save()`, without a promise or a microtask each. Returns `false`, having done nothing,
   * when it cannot (then `save()`); throws what `save()` would reject with.
   */
  saveNow(checkpoint: Checkpoint): boolean {
    if (this.#pending > 0) return false;
    const store = syncStoreOf(this.session);
    if (store === undefined) return false;
    const { key } = this;
    if (this.#version === undefined) {
      const saved = store.loadVersioned(key);
      this.#learnVersion(saved);
    }
    const split = this.#segments.split(checkpoint.state);
    if (split.writes.length > 0) {
      for (const write of split.writes) store.save(write.key, write.value);
      this.#segments.stored(split.writes.map((write) => write.key));
    }
    const expectedVersion = this.#version ?? 0;
    store.save(key, this.#head(checkpoint, split), { expectedVersion });
    this.#version = expectedVersion + 1;
    for (const k of this.#drop(split)) {
      try {
        store.delete(k);
      } catch {
        // Best effort, as in save().
      }
    }
    return true;
  }

  /** Ends a queued save (`save()`), done or failed. */
  readonly #settled = (): void => {
    this.#pending--;
  };

  /** The version to expect and the segments referred to, from the head a first save finds. */
  #learnVersion(saved: VersionedState | undefined): void {
    this.#version = saved?.version ?? 0;
    const sealed = saved ? readHead(this.key, saved.state).sealed : [];
    this.#referenced = new Set(sealed.flatMap((list) => list.keys));
  }

  #head(checkpoint: Checkpoint, split: SplitState): JsonObject {
    return headJson(split.state, split.sealed, checkpoint.call);
  }

  /** After a head was saved: the segments it no longer refers to, forgotten. */
  #drop(split: SplitState): string[] {
    const dropped: string[] = [];
    for (const k of this.#referenced) if (!split.keys.has(k)) dropped.push(k);
    this.#referenced = split.keys;
    if (dropped.length > 0) this.#segments.forget(dropped);
    return dropped;
  }

  async #save(checkpoint: Checkpoint): Promise<void> {
    const { session, key } = this;
    const versioned = isVersionedSession(session);
    // Before the first save without a load: the version to expect, and the segments the
    // head there refers to (deleted once this process's head no longer does).
    if (this.#version === undefined && versioned)
      this.#learnVersion(await session.loadVersioned(key));
    const split = this.#segments.split(checkpoint.state);
    // Segments first: a head saved is a head whose segments are all there.
    const batch = versioned ? checkpointBatchOf(session) : undefined;
    if (split.writes.length > 0 && batch === undefined) {
      await Promise.all(split.writes.map((write) => session.save(write.key, write.value)));
      this.#segments.stored(split.writes.map((write) => write.key));
    }
    const json = this.#head(checkpoint, split);
    if (batch !== undefined) {
      // One step of the store: segments, head and the deletes it allows, all or nothing.
      const expectedVersion = this.#version ?? 0;
      const dropped = [...this.#referenced].filter((k) => !split.keys.has(k));
      await batch.saveCheckpoint(split.writes, key, json, expectedVersion, dropped);
      this.#version = expectedVersion + 1;
      this.#segments.stored(split.writes.map((write) => write.key));
      this.#drop(split);
      return;
    }
    if (versioned) {
      const expectedVersion = this.#version ?? 0;
      // A failed save keeps the version: once another process advanced the key, every later
      // save of this one fails too, until `load()` (a recover) learns the key again.
      await session.save(key, json, { expectedVersion });
      this.#version = expectedVersion + 1;
    } else {
      await session.save(key, json);
    }
    const dropped = this.#drop(split);
    if (dropped.length === 0) return;
    // Best effort: a segment left behind is unreferenced, and deleteCheckpoint() removes it.
    await Promise.all(dropped.map((k) => session.delete(k).catch(() => undefined)));
  }
}

/** The default `live` of `Checkpointer.save`: every save is made. */
const always = (): boolean => true;

/** What `Checkpointer.save` resolves with once it saved. */
const saved = (): true => true;
