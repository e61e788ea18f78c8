import { availableParallelism } from 'node:os';

/**
 * How many child processes a test may run at once: one per core, at least one and at most
 * four. On a 2-core machine that is 2, so a test starting 26 programs runs them two by two
 * instead of making 26 processes share two cores (and all miss their time limits together).
 */
export function childProcessLimit(cores: number = availableParallelism()): number {
  return Math.max(1, Math.min(4, Math.floor(cores)));
}

/**
 * Runs async tasks (each typically one child process) at most `limit` at a time, in the order
 * they were submitted. A task's own time limit should start when it starts, not when it is
 * submitted: the time spent waiting for a slot is the pool's, not the task's.
 */
export class ProcessPool {
  readonly limit: number;
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(limit: number = childProcessLimit()) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new TypeError(`ProcessPool: limit must be a whole number ≥ 1, got ${limit}.`);
    this.limit = limit;
  }

  /** How many tasks are running now. */
  get running(): number {
    return this.#running;
  }

  /** Runs `task` once a slot is free; resolves or rejects with it, and frees the slot. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.#acquire();
    try {
      return await task();
    } finally {
      this.#release();
    }
  }

  /** `run`s `task` for every item, at most `limit` at a time; resolves with results in order. */
  map<I, T>(items: readonly I[], task: (item: I) => Promise<T>): Promise<T[]> {
    return Promise.all(items.map((item) => this.run(() => task(item))));
  }

  #acquire(): Promise<void> {
    if (this.#running < this.limit) {
      this.#running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    // The slot passes straight to the next task: `running` stays the same.
    if (next) next();
    else this.#running--;
  }
}
