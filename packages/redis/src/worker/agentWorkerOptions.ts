import { type AgentHost, InvalidArgumentError } from '@rxagent/core';
import type { RedisConnectionOptions } from '../connection/redisConnection.js';

/** Options of `new AgentWorker()`. */
export interface AgentWorkerOptions extends RedisConnectionOptions {
  /** The request stream this worker serves (the name every `RemoteAgent` of it uses). */
  readonly queue: string;
  /**
   * Runs the calls: one agent per thread. Its session must be shared by every worker of the
   * queue (a `RedisSession`), since a thread's next call may run on another worker.
   */
  readonly host: AgentHost;
  /** Calls this worker runs at once (default 16). */
  readonly concurrency?: number;
  /**
   * How long a run's worker may go silent before another worker claims the run, in ms
   * (default 30 000). A live worker renews its claim every third of it.
   */
  readonly claimAfterMs?: number;
  /**
   * How many times a run's request may be delivered (each read or claim of it is one)
   * before it is given up (default 5): when a claim would deliver it once more, the run
   * ends failed instead (its caller's `RemoteAgent` errors with `RemoteRunError` naming the
   * run and its deliveries) and the request is kept, with its `deliveries`, in the
   * dead-letter stream `<queue>:dead`. So a run that kills every worker that takes it is
   * started by at most this many.
   */
  readonly maxDeliveries?: number;
  /** This worker's consumer name in the group (default: host name, pid and a random suffix). */
  readonly consumer?: string;
  /** Events kept per run stream (trimmed beyond, approximately; default 10 000). */
  readonly maxRunEvents?: number;
  /** How long a finished run's events stay readable, in seconds (default 3600). */
  readonly runTtlSeconds?: number;
}

/** The option names `AgentWorker` accepts (others are rejected, naming the likely one). */
export const AGENT_WORKER_OPTION_KEYS = [
  'url',
  'client',
  'commandTimeoutMs',
  'queue',
  'host',
  'concurrency',
  'claimAfterMs',
  'maxDeliveries',
  'consumer',
  'maxRunEvents',
  'runTtlSeconds',
];

/** `value` when it is a positive integer; else an `InvalidArgumentError` naming option `name`. */
export function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new InvalidArgumentError(
      `AgentWorker: options.${name} must be a positive integer (got ${String(value)}).`,
    );
  }
  return value;
}
