import type { AgentBase, Msg } from '@rxagent/core';
import type { RedisConnectionOptions } from '../connection/redisConnection.js';

/** Options of `new RedisMsgHub()`. */
export interface RedisMsgHubOptions extends RedisConnectionOptions {
  /** The Redis Stream key of the conversation; every process of the hub uses the same one. */
  readonly topic: string;
  /** This process's participants. Names must be unique within the topic, across processes. */
  readonly participants: readonly AgentBase[];
  /** Appended to the topic on `enter()` (so every participant in every process observes it). */
  readonly announcement?: Msg | readonly Msg[];
  /**
   * The name under which this process's read position is stored (in the hash
   * `<topic>:consumers`), so a restarted process resumes where it stopped. Give each process
   * its own; default: the sorted names of the participants, joined by commas.
   */
  readonly consumer?: string;
  /**
   * Where a consumer with no stored position starts: `'beginning'` (default: it hears the
   * whole conversation so far) or `'end'` (only what is appended after `enter()`).
   */
  readonly startAt?: 'beginning' | 'end';
  /** How long one blocking read waits for new entries, in milliseconds (default 1000). */
  readonly blockMs?: number;
}

/** Something a `RedisMsgHub` did or met, on its `events` stream. */
export type RedisHubEvent =
  | {
      /** An entry was observed by the local participants (`to`) and the position saved. */
      readonly type: 'delivered';
      readonly id: string;
      readonly from: string;
      readonly msg: Msg;
      readonly to: readonly string[];
    }
  | {
      /** Redis was unreachable (retried with backoff), an entry was foreign, or an `observe` failed. */
      readonly type: 'error';
      readonly error: unknown;
    };
