import type { JsonObject } from '../json.js';
import type { Session } from '../state/session.js';
import { isVersionedSession } from '../state/versionedSession.js';
import { type Checkpoint, checkpointJson, readCheckpoint } from './checkpoint.js';
import type { DurableOptions } from './durableOptions.js';

/**
 * The saves of one durable agent, in order: one at a time, each with the version the
 * previous one left (versioned sessions), so a process that lost the run to another fails
 * its next save with `SessionConflictError` instead of overwriting the other's progress.
 * The version is learnt by `load()` or, before an agent's first save in this process, read
 * from the session.
 */
export class Checkpointer {
  readonly session: Session;
  readonly key: string;
  #version: number | undefined;
  #tail: Promise<void> = Promise.resolve();

  constructor(options: DurableOptions) {
    this.session = options.session;
    this.key = options.key;
  }

  /** Whether this process loaded or saved the key (so it knows the version). */
  get synced(): boolean {
    return this.#version !== undefined;
  }

  /** The checkpoint under the key (and its version), or `undefined` when there is none. */
  async load(): Promise<Checkpoint | undefined> {
    const { session, key } = this;
    if (!isVersionedSession(session)) {
      const json = await session.load(key);
      this.#version = 0;
      return json && readCheckpoint(json);
    }
    const saved = await session.loadVersioned(key);
    this.#version = saved?.version ?? 0;
    return saved && readCheckpoint(saved.state);
  }

  /** Saves `checkpoint` after the saves before it; rejects with the session's error. */
  save(checkpoint: Checkpoint): Promise<void> {
    const json = checkpointJson(checkpoint);
    const next = this.#tail.then(() => this.#save(json));
    this.#tail = next.catch(() => undefined);
    return next;
  }

  async #save(json: JsonObject): Promise<void> {
    const { session, key } = this;
    if (!isVersionedSession(session)) {
      await session.save(key, json);
      return;
    }
    const expectedVersion = this.#version ?? (await session.loadVersioned(key))?.version ?? 0;
    // A failed save keeps the version: once another process advanced the key, every later
    // save of this one fails too, until `load()` (a recover) learns the key again.
    await session.save(key, json, { expectedVersion });
    this.#version = expectedVersion + 1;
  }
}
