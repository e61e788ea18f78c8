import { type MonoTypeOperatorFunction, Observable, type Subscription, timer } from 'rxjs';
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

/** What `retryBeforeFirstValue` needs beyond the policy. */
export interface RetryBeforeFirstValueConfig extends RetryPolicy {
  /** Whether an error is transient (429, 5xx, timeout, connection). */
  readonly isRetryable: (error: unknown) => boolean;
  /** The wait the server asked for with this error, if any. */
  readonly retryAfterMs?: (error: unknown) => number | undefined;
  /** Aborting it ends a backoff wait at once with an `AbortError`. */
  readonly signal?: AbortSignal | undefined;
  readonly random?: () => number;
}

/**
 * Resubscribes to the source after a transient error, but only while it has emitted
 * nothing: a retry must never replay values already delivered. Waits per `retryDelayMs`;
 * the wait is a timer, so unsubscribing cancels it and `signal` aborts it (the result
 * then errors with an `AbortError`). Errors with the last error once retries run out or
 * when the error is not retryable.
 *
 * Written as one `new Observable` rather than `defer` + `tap` + `retry`: every chunk of a
 * model stream passes through it, and each operator layer is a subscriber per chunk and a
 * set of closures held for as long as the request is open.
 */
export function retryBeforeFirstValue<T>(
  config: RetryBeforeFirstValueConfig,
): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      let emitted = false;
      let retries = 0;
      let attempt: Subscription | undefined;
      let wait: Subscription | undefined;
      const start = (): void => {
        attempt = source.subscribe({
          next: (value) => {
            emitted = true;
            subscriber.next(value);
          },
          error: (error: unknown) => retryOrFail(error),
          complete: () => subscriber.complete(),
        });
      };
      const retryOrFail = (error: unknown): void => {
        let delay: number | undefined;
        try {
          delay = retries < config.maxRetries ? delayBeforeRetry(error) : undefined;
        } catch (thrown) {
          // A throwing isRetryable/retryAfterMs errors the result, as it did inside retry().
          subscriber.error(thrown);
          return;
        }
        if (delay === undefined) {
          subscriber.error(error);
          return;
        }
        retries += 1;
        wait = abortableTimer(delay, config.signal).subscribe({
          next: () => {
            wait?.unsubscribe();
            start();
          },
          error: (abort: unknown) => subscriber.error(abort),
        });
      };
      /** The wait before the next retry, or `undefined` when `error` must not be retried. */
      const delayBeforeRetry = (error: unknown): number | undefined => {
        if (emitted || !config.isRetryable(error)) return undefined;
        return retryDelayMs(retries + 1, config, config.retryAfterMs?.(error), config.random);
      };
      start();
      return () => {
        attempt?.unsubscribe();
        wait?.unsubscribe();
      };
    });
}

function abortableTimer(ms: number, signal: AbortSignal | undefined): Observable<0> {
  return new Observable<0>((subscriber) => {
    if (signal?.aborted) {
      subscriber.error(abortError(signal.reason));
      return;
    }
    const onAbort = () => subscriber.error(abortError(signal?.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    const subscription = timer(ms).subscribe(subscriber);
    return () => {
      subscription.unsubscribe();
      signal?.removeEventListener('abort', onAbort);
    };
  });
}
