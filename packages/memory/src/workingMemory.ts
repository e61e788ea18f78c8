import {
  InvalidArgumentError,
  type JsonObject,
  type MemoryStore,
  type Namespace,
  SessionConflictError,
} from '@rxagent/core';
import type { z } from 'zod';
import { mergePatch } from './mergePatch.js';

/** The segment under a user's namespace where working memory lives. */
export const WORKING_SEGMENT = 'working';
/** The key of working memory in its segment. */
export const WORKING_KEY = 'current';

/** Attempts of a patch that keeps meeting another process's writes before it gives up. */
export const MAX_PATCH_ATTEMPTS = 16;

/**
 * The queues of every store in this process, by namespace: two writers (two agents, two
 * LongTermMemory objects) on one store still apply one namespace's patches one at a time.
 */
const queuesOf = new WeakMap<MemoryStore, Map<string, Promise<unknown>>>();

/** Working memory as read: its value (`{}` when none was ever written) and version (0 then). */
export interface WorkingMemorySnapshot {
  readonly value: JsonObject;
  readonly version: number;
}

/**
 * Writes working memory with JSON Merge Patches that never lose an update: patches of one
 * namespace made in this process apply one at a time (a queue per namespace), each read,
 * merged, validated by the schema and written with `expectedVersion`; when another process
 * wrote in between (`SessionConflictError`), the patch is re-read and re-applied, up to
 * `MAX_PATCH_ATTEMPTS` attempts in all, then the conflict is thrown.
 */
export class WorkingMemoryWriter {
  readonly #queues: Map<string, Promise<unknown>>;

  constructor(
    readonly store: MemoryStore,
    readonly schema: z.ZodType | undefined,
  ) {
    let queues = queuesOf.get(store);
    if (queues === undefined) {
      queues = new Map();
      queuesOf.set(store, queues);
    }
    this.#queues = queues;
  }

  /** Reads the working memory of `namespace` (the user's namespace, not its working segment). */
  async read(namespace: Namespace): Promise<WorkingMemorySnapshot> {
    const item = await this.store.get([...namespace, WORKING_SEGMENT], WORKING_KEY);
    return item === undefined
      ? { value: {}, version: 0 }
      : { value: item.value, version: item.version };
  }

  /** Applies `patch`; resolves the working memory as written. Rejects a patch the schema refuses. */
  patch(namespace: Namespace, patch: JsonObject): Promise<WorkingMemorySnapshot> {
    const id = JSON.stringify(namespace);
    const before = this.#queues.get(id) ?? Promise.resolve();
    const run = before.then(
      () => this.#apply(namespace, patch),
      () => this.#apply(namespace, patch),
    );
    this.#queues.set(id, run);
    // The queue entry goes once it is the last: a namespace idle again costs nothing.
    const clear = (): void => {
      if (this.#queues.get(id) === run) this.#queues.delete(id);
    };
    run.then(clear, clear);
    return run;
  }

  async #apply(namespace: Namespace, patch: JsonObject): Promise<WorkingMemorySnapshot> {
    for (let attempt = 1; ; attempt++) {
      const current = await this.read(namespace);
      const merged = mergePatch(current.value, patch) as JsonObject;
      const value = this.#validated(merged);
      try {
        const { version } = await this.store.put(
          [...namespace, WORKING_SEGMENT],
          WORKING_KEY,
          value,
          {
            expectedVersion: current.version,
            text: '',
          },
        );
        return { value, version };
      } catch (error) {
        if (!(error instanceof SessionConflictError) || attempt >= MAX_PATCH_ATTEMPTS) throw error;
        // Another process wrote in between: back off (random, doubling up to 100 ms, so a
        // process whose queue keeps winning drains first), then re-read and re-apply.
        const backoffMs = Math.random() * Math.min(100, 2 ** attempt);
        await new Promise((resolve) => setTimeout(resolve, backoffMs));
      }
    }
  }

  #validated(value: JsonObject): JsonObject {
    if (this.schema === undefined) return value;
    const parsed = this.schema.safeParse(value);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
        .join('; ');
      throw new InvalidArgumentError(
        `memory_update: the patched working memory does not fit its schema: ${issues}`,
      );
    }
    return parsed.data as JsonObject;
  }
}
