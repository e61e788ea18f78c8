import type { HookRoom, ReasoningChunkEvent } from '@rxagent/core';
import { Subscription } from 'rxjs';

/** A call context that runs hooks without an Observable (the agent's own contexts do). */
export type DispatchingRoom = Required<Pick<HookRoom, 'dispatch'>>;

/**
 * Hands the `reasoningChunk` events of a streaming reply to the call's hooks and `stream()`
 * one after another, as `concatMap(notify)` over the chunks would, but without an Observable
 * or an inner subscriber per event: each goes through the context's `dispatch`, so with
 * synchronous hooks it is delivered at once, and an asynchronous hook holds the events after
 * it until it is done. `end(then)` runs `then` once every event pushed so far was delivered.
 * The first hook error goes to `fail` and nothing is delivered after it; `live` holds the
 * pending hook, and unsubscribing it stops the relay.
 */
export class ChunkRelay {
  readonly live = new Subscription();
  readonly #room: DispatchingRoom;
  readonly #fail: (error: unknown) => void;
  // A queue read from `#head`: shifting an array per event would be quadratic while a slow
  // hook holds a long reply's events.
  #queue: ReasoningChunkEvent[] = [];
  #head = 0;
  #busy = false; // an event is with the hooks
  #draining = false; // a `#drain` below on the stack delivers the rest
  #failed = false;
  #end: (() => void) | undefined;

  constructor(room: DispatchingRoom, fail: (error: unknown) => void) {
    this.#room = room;
    this.#fail = fail;
  }

  /** Delivers `events` after those pushed before. */
  push(events: readonly ReasoningChunkEvent[]): void {
    for (const event of events) this.#queue.push(event);
    this.#drain();
  }

  /** Runs `then` once every event pushed so far was delivered (at once when none waits). */
  end(then: () => void): void {
    this.#end = then;
    this.#drain();
  }

  #drain(): void {
    if (this.#busy || this.#draining) return;
    this.#draining = true;
    try {
      // Synchronous hooks end each dispatch before it returns: this loop, not recursion,
      // delivers the next event, so the stack stays flat however many wait.
      while (!this.#busy && !this.#failed && !this.live.closed) {
        const event = this.#queue[this.#head];
        if (event === undefined) {
          this.#queue = [];
          this.#head = 0;
          const end = this.#end;
          this.#end = undefined;
          end?.();
          return;
        }
        this.#head++;
        this.#busy = true;
        this.#room.dispatch(event, this.#delivered, this.#onError, this.live);
      }
    } finally {
      this.#draining = false;
    }
  }

  readonly #delivered = (): void => {
    this.#busy = false;
    this.#drain();
  };

  readonly #onError = (error: unknown): void => {
    if (this.#failed) return;
    this.#failed = true;
    this.#fail(error);
  };
}
