import type { Observable, Subscription } from 'rxjs';

/** What a recorded subscription has seen so far. */
export interface RecordedNotifications<T> {
  readonly values: T[];
  error?: unknown;
  complete: boolean;
}

/**
 * Subscribes to `source` and records its notifications as they arrive, so a test can assert
 * what happened synchronously (or after awaiting something) and unsubscribe when it likes.
 *
 * @example
 * ```ts
 * const { seen, subscription } = subscribeAndRecord(agent.call(userMsg('hi')));
 * expect(seen.values).toHaveLength(1);   // a synchronous agent replied within subscribe
 * subscription.unsubscribe();
 * ```
 */
export function subscribeAndRecord<T>(source: Observable<T>): {
  readonly seen: RecordedNotifications<T>;
  readonly subscription: Subscription;
} {
  const seen: RecordedNotifications<T> = { values: [], complete: false };
  const subscription = source.subscribe({
    next: (value) => seen.values.push(value),
    error: (error: unknown) => {
      seen.error = error;
    },
    complete: () => {
      seen.complete = true;
    },
  });
  return { seen, subscription };
}
