/** How a model's circuit stands: `closed` sends, `open` skips, `half-open` allows one trial. */
export type CircuitState = 'closed' | 'open' | 'half-open';

/** How a request got through a circuit: on a closed one, or as a half-open one's trial. */
export type CircuitPass = 'pass' | 'trial';

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
   * Whether a request may go to the model now: `'pass'` on a closed circuit, `'trial'` when
   * it takes a half-open circuit's one trial (until that trial ends), `undefined` to skip.
   * The request reports its end with the same value.
   */
  tryAcquire(): CircuitPass | undefined {
    const state = this.state;
    if (state === 'closed') return 'pass';
    if (state === 'open' || this.#trialRunning) return undefined;
    this.#trialRunning = true;
    return 'trial';
  }

  /** The request reached the model (its first chunk arrived): the circuit closes. */
  succeeded(pass: CircuitPass): void {
    this.#failures = 0;
    if (pass === 'trial') this.#trialRunning = false;
  }

  /** The request failed with an outage: one more consecutive failure. */
  failed(pass: CircuitPass): void {
    this.#failures += 1;
    if (this.#failures >= this.#threshold) this.#openedAt = this.#now();
    if (pass === 'trial') this.#trialRunning = false;
  }

  /** The request ended without a verdict (cancelled, or a non-outage error). */
  released(pass: CircuitPass): void {
    if (pass === 'trial') this.#trialRunning = false;
  }
}
