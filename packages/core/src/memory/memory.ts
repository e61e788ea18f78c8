import type { Msg } from '../message/msg.js';
import type { StateModule } from '../state/stateModule.js';

/**
 * A conversation store. Synchronous, ordered, and part of the agent's state. `messages()`
 * returns a read-only view; change memory only through its methods.
 */
export interface Memory extends StateModule {
  /** Appends messages in order. */
  add(msgs: Msg | readonly Msg[]): void;
  /** The stored messages, oldest first. */
  messages(): readonly Msg[];
  /** Removes the messages with these ids; returns how many were removed. */
  delete(ids: Iterable<string>): number;
  /** Replaces the whole conversation (used by compaction). */
  replace(msgs: readonly Msg[]): void;
  /** Removes everything. */
  clear(): void;
  /** How many messages are stored. */
  readonly size: number;
}
