/** How a model's circuit stands: `closed` sends, `open` skips, `half-open` allows one trial. */
export type CircuitState = 'closed' | 'open' | 'half-open';

/** Settings of a per-model circuit breaker. */
export interface CircuitOptions {
  /** Consecutive failures that open the circuit (default 3). */
  readonly failures?: number;
  /** How long an open circuit skips its model before one trial request (default 30 000). */
  readonly cooldownMs?: number;
}

/**
 * A circuit breaker for one model: after `failures` consecutive failures it opens and the
 * model is skipped for `cooldownMs`; then it is half-open and lets one trial request
 * through (others still skip): the trial's success closes it, its failure opens it for
 * another cooldown. Time comes from `now`, so a virtual clock can drive it.
 */
export class CircuitBreaker {
  readonly #threshold: number;
  readonly #cooldownMs: number;
  readonly #now: () => number;
  #failures = 0;
  #openedAt = 0;
  #trialRunning = false;

  constructor(threshold: number, cooldownMs: number, now: () => number) {
    this.#threshold = threshold;
    this.#cooldownMs = cooldownMs;
    this.#now = now;
  }

  /** The state now. */
  get state(): CircuitState {
    if (this.#failures < this.#threshold) return 'closed';
    return this.#now() - this.#openedAt >= this.#cooldownMs ? 'half-open' : 'open';
  }

  /** Consecutive failures so far. */
  get failures(): number {
    return this.#failures;
  }

  /**
   * Whether a request may go to the model now; for a half-open circuit this takes the one
   * trial (`true` once, until the trial ends).
   */
  tryAcquire(): boolean {
    const state = this.state;
    if (state === 'closed') return true;
    if (state === 'open' || this.#trialRunning) return false;
    this.#trialRunning = true;
    return true;
  }

  /** The request reached the model (its first chunk arrived): the circuit closes. */
  succeeded(): void {
    this.#failures = 0;
    this.#trialRunning = false;
  }

  /** The request failed with an outage: one more consecutive failure. */
  failed(): void {
    this.#failures += 1;
    if (this.#failures >= this.#threshold) this.#openedAt = this.#now();
    this.#trialRunning = false;
  }

  /** The request ended without a verdict (cancelled, or a non-outage error). */
  released(): void {
    this.#trialRunning = false;
  }
}
