/**
 * The Redis keys of one worker queue. `queue` is the request stream itself; everything else
 * hangs off it, so one queue's keys never meet another's. Internal.
 */
export class WorkerKeys {
  /** The consumer group every worker of a queue reads through. */
  static readonly GROUP = 'rxagent-workers';

  constructor(readonly queue: string) {}

  /** The stream of one run's events (`seq`, `event`). */
  run(runId: string): string {
    return `${this.queue}:run:${runId}`;
  }

  /** An interrupt asked for a run before or while it runs (a JSON string, with a TTL). */
  interrupt(runId: string): string {
    return `${this.queue}:run:${runId}:interrupt`;
  }

  /** The pub/sub channel interrupts are announced on. */
  get interrupts(): string {
    return `${this.queue}:interrupts`;
  }

  /** The last position handed out on a thread (INCR at submission). */
  threadNext(threadId: string): string {
    return `${this.queue}:thread:${threadId}:next`;
  }

  /** The last position finished on a thread: position n runs only after n - 1. */
  threadDone(threadId: string): string {
    return `${this.queue}:thread:${threadId}:done`;
  }

  /** Which worker holds a thread now (with a lease). */
  threadLock(threadId: string): string {
    return `${this.queue}:thread:${threadId}:lock`;
  }

  /** The id of the run going on a thread, for `attach()` without a run id. */
  threadRun(threadId: string): string {
    return `${this.queue}:thread:${threadId}:run`;
  }

  /** Positions of a thread whose runs were dead-lettered: skipped once every one before them finished. */
  threadDead(threadId: string): string {
    return `${this.queue}:thread:${threadId}:dead`;
  }

  /** The dead-letter stream: requests delivered `maxDeliveries` times, with their `deliveries`. */
  get dead(): string {
    return `${this.queue}:dead`;
  }
}
