import { asyncScheduler, type Subscription } from 'rxjs';
import { abortError } from './abortError.js';

/** How often and how long to wait before retrying a failed request. */
export interface RetryPolicy {
  /** Retries after the first attempt (0 = never retry). */
  readonly maxRetries: number;
  /** The first backoff; each further retry doubles it. */
  readonly baseDelayMs: number;
  /** The longest computed backoff (default 8 s). */
  readonly maxDelayMs?: number;
  /** The longest wait a server's `retry-after` may impose (default 30 s). */
  readonly maxRetryAfterMs?: number;
}

const DEFAULT_MAX_DELAY_MS = 8_000;
const DEFAULT_MAX_RETRY_AFTER_MS = 30_000;

/**
 * The exponential backoff before retry number `retry` (1-based): `baseDelayMs * 2^(retry-1)`,
 * capped at `maxDelayMs`, minus up to 25% jitter so clients that failed together do not
 * retry together. `random` returns a number in [0, 1).
 */
export function backoffDelayMs(
  retry: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
) {
  const exponential = policy.baseDelayMs * 2 ** Math.max(0, retry - 1);
  const capped = Math.min(exponential, policy.maxDelayMs ?? DEFAULT_MAX_DELAY_MS);
  return Math.round(capped * (1 - 0.25 * random()));
}

/**
 * The wait before retry number `retry`: the server's `retry-after` when it sent one
 * (capped at `maxRetryAfterMs`, no jitter: the server chose the time), else the backoff.
 */
export function retryDelayMs(
  retry: number,
  policy: RetryPolicy,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) {
    return Math.min(retryAfterMs, policy.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS);
  }
  return backoffDelayMs(retry, policy, random);
}

/** Anything with `get(name)`, like the Fetch API's `Headers`. */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * The wait a response asks for, in milliseconds: `retry-after-ms` (OpenAI's), else
 * `retry-after` as seconds or an HTTP date; `undefined` when absent or unreadable.
 */
export function parseRetryAfterMs(headers: HeaderReader | undefined, now = Date.now()) {
  const millis = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(millis) && millis >= 0) return millis;
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** What `runWithRetries` needs beyond the policy. */
export interface RetryConfig extends RetryPolicy {
  /** Whether an error is transient (429, 5xx, timeout, connection). */
  readonly isRetryable: (error: unknown) => boolean;
  /** The wait the server asked for with this error, if any. */
  readonly retryAfterMs?: (error: unknown) => number | undefined;
  /** Aborting it ends a backoff wait at once with an `AbortError`. */
  readonly signal?: AbortSignal | undefined;
  readonly random?: () => number;
}

/** Where an attempt delivers its values and its end: `subscriber`-like. */
export interface AttemptSink<T> {
  next(value: T): void;
  error(error: unknown): void;
  complete(): void;
}

/** Starts one attempt delivering to `sink`; returns what stops it. */
export type StartAttempt<T> = (sink: AttemptSink<T>) => () => void;

/**
 * Runs attempts (`start`) into `subscriber` until one completes, retrying after a transient
 * error, but only while nothing has been emitted: a retry must never replay values already
 * delivered. Waits per `retryDelayMs` on the async scheduler; unsubscribing (the returned
 * teardown) cancels the wait and stops the running attempt, and `signal` aborts the wait
 * (the result then errors with an `AbortError`); a `signal` given apart takes the place of
 * `config.signal`, so a shared config needs no copy per run. Errors with the last error once retries
 * run out or when the error is not retryable.
 *
 * One object between the attempts and the subscriber, rather than an operator over an
 * Observable per attempt: every chunk of a model stream passes through it, and a parked
 * model call holds it for as long as it waits.
 */
export function runWithRetries<T>(
  subscriber: AttemptSink<T>,
  config: RetryConfig,
  start: StartAttempt<T>,
  signal: AbortSignal | undefined = config.signal,
): () => void {
  const run = new RetryingRun(subscriber, config, start, signal);
  run.attempt();
  return () => run.stop();
}

class RetryingRun<T> implements AttemptSink<T> {
  readonly #subscriber: AttemptSink<T>;
  readonly #config: RetryConfig;
  readonly #start: StartAttempt<T>;
  readonly #signal: AbortSignal | undefined;
  #emitted = false;
  #retries = 0;
  #stopAttempt: (() => void) | undefined;
  #wait: Subscription | undefined;

  constructor(
    subscriber: AttemptSink<T>,
    config: RetryConfig,
    start: StartAttempt<T>,
    signal: AbortSignal | undefined,
  ) {
    this.#subscriber = subscriber;
    this.#config = config;
    this.#start = start;
    this.#signal = signal;
  }

  attempt(): void {
    this.#stopAttempt?.(); // the failed attempt released itself; this is only a safeguard
    this.#wait = undefined;
    this.#signal?.removeEventListener('abort', this.#onAbort);
    this.#stopAttempt = this.#start(this);
  }

  next(value: T): void {
    this.#emitted = true;
    this.#subscriber.next(value);
  }

  complete(): void {
    this.#subscriber.complete();
  }

  error(error: unknown): void {
    let delay: number | undefined;
    try {
      delay = this.#delayBeforeRetry(error);
    } catch (thrown) {
      // A throwing isRetryable/retryAfterMs errors the result.
      this.#subscriber.error(thrown);
      return;
    }
    if (delay === undefined) {
      this.#subscriber.error(error);
      return;
    }
    const signal = this.#signal;
    if (signal?.aborted) {
      this.#subscriber.error(abortError(signal.reason));
      return;
    }
    this.#retries += 1;
    signal?.addEventListener('abort', this.#onAbort, { once: true });
    this.#wait = asyncScheduler.schedule(() => this.attempt(), delay);
  }

  stop(): void {
    this.#stopAttempt?.();
    this.#wait?.unsubscribe();
    this.#signal?.removeEventListener('abort', this.#onAbort);
  }

  readonly #onAbort = (): void => {
    this.#wait?.unsubscribe();
    this.#subscriber.error(abortError(this.#signal?.reason));
  };

  /** The wait before the next retry, or `undefined` when `error` must not be retried. */
  #delayBeforeRetry(error: unknown): number | undefined {
    const config = this.#config;
    if (this.#emitted || this.#retries >= config.maxRetries || !config.isRetryable(error)) {
      return undefined;
    }
    return retryDelayMs(this.#retries + 1, config, config.retryAfterMs?.(error), config.random);
  }
}
