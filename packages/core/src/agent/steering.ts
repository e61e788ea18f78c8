import type { Msg } from '../message/msg.js';

/**
 * The messages `steer()` gave a running call: waiting until the call takes them
 * (`CallContext.takeSteered()`), then remembered by id for the reply's `metadata.steered`.
 */
export class Steering {
  #waiting: Msg[] = [];
  #taken: string[] | undefined;

  /** Adds messages for the call's next model request. */
  add(msgs: readonly Msg[]): void {
    this.#waiting.push(...msgs);
  }

  /** The waiting messages, in the order they were steered; each is taken once. */
  take(): Msg[] {
    const msgs = this.#waiting;
    if (msgs.length === 0) return msgs;
    this.#waiting = [];
    this.#taken ??= [];
    for (const msg of msgs) this.#taken.push(msg.id);
    return msgs;
  }

  /** The messages never taken (the call ended first); each is handed out once. */
  takeLeft(): Msg[] {
    const msgs = this.#waiting;
    this.#waiting = [];
    return msgs;
  }

  /** The ids of the messages taken so far, or `undefined` when none was. */
  get takenIds(): readonly string[] | undefined {
    return this.#taken;
  }
}
