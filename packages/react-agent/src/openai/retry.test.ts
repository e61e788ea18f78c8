import { isAbortError } from '@rxagent/core';
import { defer, Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import {
  backoffDelayMs,
  parseRetryAfterMs,
  type RetryConfig,
  retryDelayMs,
  runWithRetries,
} from './retry.js';

const policy = { maxRetries: 2, baseDelayMs: 500 };
const transient = new Error('transient');
const fatal = new Error('fatal');

function scheduler() {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

/** A source whose n-th subscription behaves like `attempts[n]`; counts subscriptions. */
function attempts(list: Array<() => Observable<string>>) {
  const state = { subscriptions: 0 };
  const source = defer(() => {
    const attempt = list[Math.min(state.subscriptions, list.length - 1)]!;
    state.subscriptions += 1;
    return attempt();
  });
  return { source, state };
}

/** `source`'s attempts run by `runWithRetries`, as an Observable marble tests can read. */
function retried<T>(source: Observable<T>, options: RetryConfig): Observable<T> {
  return new Observable<T>((subscriber) =>
    runWithRetries(subscriber, options, (sink) => {
      const subscription = source.subscribe(sink);
      return () => subscription.unsubscribe();
    }),
  );
}

const config = (over: Partial<RetryConfig> = {}): RetryConfig => ({
  ...policy,
  isRetryable: (error) => error === transient,
  random: () => 0,
  ...over,
});

describe('backoffDelayMs', () => {
  it('doubles from the base delay per retry and caps at maxDelayMs', () => {
    const none = () => 0;
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelayMs(n, policy, none))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000,
    ]);
    expect(backoffDelayMs(3, { ...policy, maxDelayMs: 1500 }, none)).toBe(1500);
  });

  it('subtracts up to 25% jitter', () => {
    expect(backoffDelayMs(2, policy, () => 0.5)).toBe(875);
    expect(backoffDelayMs(2, policy, () => 0.9999)).toBe(750);
  });
});

describe('retryDelayMs', () => {
  it("uses the server's retry-after without jitter, capped at maxRetryAfterMs", () => {
    expect(retryDelayMs(1, policy, 0, () => 0.9)).toBe(0);
    expect(retryDelayMs(1, policy, 2_000, () => 0.9)).toBe(2_000);
    expect(retryDelayMs(1, policy, 120_000)).toBe(30_000);
    expect(retryDelayMs(1, { ...policy, maxRetryAfterMs: 5_000 }, 9_000)).toBe(5_000);
  });

  it('falls back to the backoff without retry-after', () => {
    expect(retryDelayMs(3, policy, undefined, () => 0)).toBe(2000);
  });
});

describe('parseRetryAfterMs', () => {
  const headers = (entries: Record<string, string>) => new Headers(entries);

  it('prefers retry-after-ms, then retry-after seconds', () => {
    expect(parseRetryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(parseRetryAfterMs(headers({ 'retry-after': '1.5' }))).toBe(1500);
    expect(parseRetryAfterMs(headers({ 'retry-after': '0' }))).toBe(0);
  });

  it('reads an HTTP date relative to now', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    const value = headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' });
    expect(parseRetryAfterMs(value, now)).toBe(3000);
  });

  it('ignores missing, negative and unreadable values', () => {
    expect(parseRetryAfterMs(undefined)).toBeUndefined();
    expect(parseRetryAfterMs(headers({}))).toBeUndefined();
    expect(parseRetryAfterMs(headers({ 'retry-after': '-1' }))).toBeUndefined();
    expect(parseRetryAfterMs(headers({ 'retry-after': 'soon' }))).toBeUndefined();
  });
});

describe('runWithRetries', () => {
  it('retries a transient error after the backoff and then emits', () => {
    scheduler().run(({ cold, expectObservable, flush }) => {
      const { source, state } = attempts([
        () => cold('#', undefined, transient),
        () => cold('#', undefined, transient),
        () => cold('a|'),
      ]);
      expectObservable(retried(source, config())).toBe('1500ms a|');
      flush();
      expect(state.subscriptions).toBe(3);
    });
  });

  it('never retries once a value was emitted', () => {
    scheduler().run(({ cold, expectObservable, flush }) => {
      const { source, state } = attempts([
        () => cold('a#', undefined, transient),
        () => cold('b|'),
      ]);
      expectObservable(retried(source, config())).toBe('a#', undefined, transient);
      flush();
      expect(state.subscriptions).toBe(1);
    });
  });

  it('does not retry an error that is not retryable', () => {
    scheduler().run(({ cold, expectObservable, flush }) => {
      const { source, state } = attempts([() => cold('#', undefined, fatal), () => cold('a|')]);
      expectObservable(retried(source, config())).toBe('#', undefined, fatal);
      flush();
      expect(state.subscriptions).toBe(1);
    });
  });

  it('errors with the last error once maxRetries are spent', () => {
    scheduler().run(({ cold, expectObservable, flush }) => {
      const { source, state } = attempts([() => cold('#', undefined, transient)]);
      const result = retried(source, config());
      expectObservable(result).toBe('1500ms #', undefined, transient);
      flush();
      expect(state.subscriptions).toBe(3);
    });
  });

  it("waits the server's retry-after instead of the backoff", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const { source } = attempts([() => cold('#', undefined, transient), () => cold('a|')]);
      const result = retried(source, config({ retryAfterMs: () => 40 }));
      expectObservable(result).toBe('40ms a|');
    });
  });

  it('errors with an AbortError at once when the signal aborts during a backoff', () => {
    const testScheduler = scheduler();
    testScheduler.run(({ cold, flush }) => {
      const controller = new AbortController();
      const { source, state } = attempts([() => cold('#', undefined, transient), () => cold('a|')]);
      const result = retried(source, config({ signal: controller.signal }));
      let failure: { error: unknown; at: number } | undefined;
      cold('100ms x').subscribe(() => controller.abort());
      result.subscribe({
        error: (error: unknown) => (failure = { error, at: testScheduler.now() }),
      });
      flush();
      expect(failure?.at).toBe(100);
      expect(isAbortError(failure?.error)).toBe(true);
      expect(state.subscriptions).toBe(1);
    });
  });

  it("takes a signal given apart in place of the config's, and leaves no listener on either", () => {
    const testScheduler = scheduler();
    testScheduler.run(({ cold, flush }) => {
      const shared = new AbortController();
      const own = new AbortController();
      const { source, state } = attempts([() => cold('#', undefined, transient), () => cold('a|')]);
      const result = new Observable<string>((subscriber) =>
        runWithRetries(
          subscriber,
          config({ signal: shared.signal }),
          (sink) => {
            const subscription = source.subscribe(sink);
            return () => subscription.unsubscribe();
          },
          own.signal,
        ),
      );
      let failure: { error: unknown; at: number } | undefined;
      cold('100ms x').subscribe(() => shared.abort());
      cold('200ms x').subscribe(() => own.abort());
      result.subscribe({
        error: (error: unknown) => (failure = { error, at: testScheduler.now() }),
      });
      flush();
      // The shared signal's abort (at 100 ms) did not end the wait; the run's own did.
      expect(failure?.at).toBe(200);
      expect(isAbortError(failure?.error)).toBe(true);
      expect(state.subscriptions).toBe(1);
    });
  });

  it('cancels the backoff timer on unsubscribe, so no retry is made', () => {
    scheduler().run(({ cold, expectObservable, flush }) => {
      const { source, state } = attempts([() => cold('#', undefined, transient), () => cold('a|')]);
      expectObservable(retried(source, config()), '^ 100ms !').toBe('');
      flush();
      expect(state.subscriptions).toBe(1);
    });
  });
});
