import type { AgentEvent } from '@rxagent/core';
import type { Acquired, ThreadLeases } from './threadLeases.js';
import type { WireControl } from './wireEvent.js';
import type { WorkerFlight } from './workerFlight.js';

/**
 * A worker's hold on its runs: waiting until a request's thread is free for its position,
 * then renewing, every beat, the request (so other workers' claims do not take it) and the
 * thread of each run it holds, with a heartbeat on the run's stream. A flight whose request
 * or thread another worker took is abandoned at once; one whose renewals Redis does not
 * confirm is abandoned by its own watchdog after `claimAfterMs`. Internal.
 */
export class FlightHolds {
  readonly #leases: ThreadLeases;
  readonly #append: (flight: WorkerFlight, event: AgentEvent | WireControl) => Promise<void>;
  #renewing = false;

  constructor(
    leases: ThreadLeases,
    append: (flight: WorkerFlight, event: AgentEvent | WireControl) => Promise<void>,
  ) {
    this.#leases = leases;
    this.#append = append;
  }

  /** Waits until the request's thread is free for its position. */
  async acquire(flight: WorkerFlight): Promise<Exclude<Acquired, 'busy'> | 'abandoned'> {
    const { request } = flight;
    let attempt = 0;
    for (;;) {
      if (flight.abandoned) return 'abandoned';
      try {
        const sentAt = performance.now();
        const taken = await this.#leases.acquire(request);
        if (taken === 'taken') flight.held(sentAt);
        if (taken !== 'busy') return flight.abandoned ? 'abandoned' : taken;
        attempt = Math.min(attempt + 1, 4);
      } catch {
        attempt++;
      }
      await delay(Math.min(200, 5 * 2 ** attempt));
    }
  }

  /**
   * Renews every held thread and keeps every in-flight request from looking silent, all at
   * once (one tick at a time: while Redis stalls, ticks do not pile up).
   */
  async renewAll(flights: Iterable<WorkerFlight>): Promise<void> {
    if (this.#renewing) return;
    this.#renewing = true;
    try {
      await Promise.all([...flights].map((flight) => this.#renew(flight)));
    } finally {
      this.#renewing = false;
    }
  }

  /**
   * Renews one flight's hold: the request stays this worker's and, when it runs, its thread
   * too. A flight whose request or thread another worker took is given up at once.
   */
  async #renew(flight: WorkerFlight): Promise<void> {
    if (flight.abandoned) return;
    const { request } = flight;
    try {
      const sentAt = performance.now();
      const mine = await this.#leases.touch(request);
      if (!mine) {
        flight.abandon();
        return;
      }
      if (!flight.holding) return;
      const renewed = await this.#leases.renew(request);
      if (!renewed) flight.abandon();
      else {
        flight.held(sentAt);
        void this.#append(flight, { type: 'heartbeat' });
      }
    } catch {
      // Redis is down: try again on the next beat (the hold runs out after claimAfterMs).
    }
  }
}

/** Resolves after `ms` milliseconds. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
