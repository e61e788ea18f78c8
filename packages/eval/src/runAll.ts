import { Observable, type Subscription } from 'rxjs';

/**
 * Runs `start(item)` for every item, at most `concurrency` at once, in the items' order,
 * and emits every run's one value in the items' order (not the order they finished in),
 * then completes. Cold. A run that completes synchronously lets the next one start from
 * the same loop (no recursion, whatever the number of items); a run that errors errors the
 * whole; unsubscribing cancels the runs in flight and starts no more.
 */
export function runAll<T, R>(
  items: readonly T[],
  concurrency: number,
  start: (item: T) => Observable<R>,
): Observable<R[]> {
  return new Observable<R[]>((subscriber) => {
    const results = new Array<R>(items.length);
    const running = new Map<number, Subscription>();
    let next = 0;
    let finished = 0;
    let pumping = false;
    let again = false;
    const pump = (): void => {
      if (pumping) {
        again = true; // a run ended inside the loop below: it goes round once more
        return;
      }
      pumping = true;
      do {
        again = false;
        while (!subscriber.closed && running.size < concurrency && next < items.length) {
          const index = next++;
          let done = false;
          const subscription = start(items[index]!).subscribe({
            next: (value) => {
              results[index] = value;
            },
            error: (error: unknown) => {
              done = true;
              running.delete(index);
              subscriber.error(error);
            },
            complete: () => {
              done = true;
              running.delete(index);
              if (++finished === items.length) {
                subscriber.next(results);
                subscriber.complete();
              } else pump();
            },
          });
          if (!done) running.set(index, subscription);
        }
      } while (again);
      pumping = false;
    };
    if (items.length === 0) {
      subscriber.next(results);
      subscriber.complete();
    } else pump();
    return () => {
      for (const subscription of running.values()) subscription.unsubscribe();
      running.clear();
    };
  });
}
