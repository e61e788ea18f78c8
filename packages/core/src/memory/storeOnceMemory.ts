import type { JsonObject } from '../json.js';
import { freezeMsg, freezeMsgs } from '../message/freezeMsg.js';
import type { Msg } from '../message/msg.js';
import { InMemoryMemory } from './inMemoryMemory.js';
import type { Memory } from './memory.js';

/**
 * A `Memory` wrapper that stores each Msg (by id) once, whatever the wrapped memory does:
 * the agent's guarantee, so a custom `Memory` need not skip repeats itself. In a hub with a
 * pipeline the same reply arrives twice (observed as a broadcast, then passed on as input);
 * only the first is stored.
 *
 * It keeps the ids of the stored messages in a Set, so `add` costs O(1) per message. The Set
 * follows every change made through the wrapper (`delete`, `replace`, `clear`,
 * `loadStateDict`); when the wrapped memory was changed behind its back (its `size` is not
 * what the wrapper last saw), the Set is rebuilt from `messages()` before the next add. An
 * `InMemoryMemory` (not a subclass) already stores each id once, so around one the wrapper
 * never makes a Set.
 */
export class StoreOnceMemory implements Memory {
  /** The wrapped memory, which holds the messages and the state. */
  readonly inner: Memory;
  /** Whether the wrapped memory skips repeated ids itself (then no Set is kept here). */
  readonly #innerStoresOnce: boolean;
  /** Made by the first add (`#seenSize` starts unseen), never around an `InMemoryMemory`. */
  #ids: Set<string> | undefined;
  #seenSize = -1;

  constructor(inner: Memory) {
    this.inner = inner;
    // Exactly an InMemoryMemory: a subclass may store differently.
    this.#innerStoresOnce = inner.constructor === InMemoryMemory;
  }

  /**
   * Appends the messages whose ids are not stored yet (nor repeated earlier in `msgs`), in
   * order, each frozen deeply first (a custom memory then holds only frozen Msgs too).
   */
  add(msgs: Msg | readonly Msg[]): void {
    if (this.#innerStoresOnce) {
      this.inner.add(msgs);
      return;
    }
    const ids = this.#sync();
    if (!Array.isArray(msgs)) {
      // One Msg (most adds): no list to build around it.
      const msg = msgs as Msg;
      if (ids.has(msg.id)) return;
      ids.add(msg.id);
      this.inner.add(freezeMsg(msg));
      this.#seenSize = this.inner.size;
      return;
    }
    const fresh: Msg[] = [];
    for (const msg of Array.isArray(msgs) ? (msgs as readonly Msg[]) : [msgs as Msg]) {
      if (ids.has(msg.id)) continue;
      ids.add(msg.id);
      fresh.push(freezeMsg(msg));
    }
    if (fresh.length > 0) this.inner.add(fresh);
    this.#seenSize = this.inner.size;
  }

  /** The stored messages, oldest first (the wrapped memory's view). */
  messages(): readonly Msg[] {
    return this.inner.messages();
  }

  /** Removes the messages with these ids; returns how many were removed. */
  delete(ids: Iterable<string>): number {
    const removed = this.inner.delete(ids);
    this.#invalidate();
    return removed;
  }

  /** Replaces the whole conversation (a repeated id is kept once). */
  replace(msgs: readonly Msg[]): void {
    if (this.#innerStoresOnce) {
      this.inner.replace(msgs);
      return;
    }
    const ids = new Set<string>();
    const unique = msgs.filter((msg) => !ids.has(msg.id) && ids.add(msg.id));
    this.inner.replace(freezeMsgs(unique));
    this.#ids = ids;
    this.#seenSize = this.inner.size;
  }

  /** Removes everything. */
  clear(): void {
    this.inner.clear();
    this.#invalidate();
  }

  /** How many messages are stored. */
  get size(): number {
    return this.inner.size;
  }

  /** The wrapped memory's state. */
  stateDict(): JsonObject {
    return this.inner.stateDict();
  }

  /** The wrapped memory's checkpoint state (see `StateModule.checkpointDict`). */
  checkpointDict(): JsonObject {
    return this.inner.checkpointDict?.() ?? this.inner.stateDict();
  }

  /** Loads the wrapped memory's state (its own validation applies). */
  loadStateDict(state: JsonObject): void {
    this.inner.loadStateDict(state);
    // Once per load: a custom memory's restored Msgs are frozen like the ones it is given.
    freezeMsgs(this.inner.messages());
    this.#invalidate();
  }

  #invalidate(): void {
    this.#seenSize = -1;
  }

  /** The ids of the wrapped memory's messages, rebuilt when it changed behind the wrapper. */
  #sync(): Set<string> {
    if (this.#ids !== undefined && this.inner.size === this.#seenSize) return this.#ids;
    this.#ids = new Set(this.inner.messages().map((msg) => msg.id));
    this.#seenSize = this.inner.size;
    return this.#ids;
  }
}
