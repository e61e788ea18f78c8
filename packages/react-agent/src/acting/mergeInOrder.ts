import { Observable, Subscription } from 'rxjs';

/**
 * Runs `project(0)` … `project(count - 1)`, starting them in index order and at most `limit`
 * at once, and emits once, when the last has finished: the array of their results in index
 * order, whatever order they finished in. Each inner's first value, passed through
 * `settle(index, value)` as soon as it arrives, is its result; an inner that completes
 * without a value has none (`undefined` in the array). Cold. The first inner error (or a
 * throw in `settle`) errors the whole at once and unsubscribes the inners still running;
 * so does unsubscribing.
 *
 * What `range(0, count).pipe(mergeMap(project, limit), toArray())` plus a sort by index
 * would do, in one subscriber: a batch of tool calls holds this instead of four operator
 * layers while its tools run.
 */
export function mergeInOrder<T, R>(
  count: number,
  project: (index: number) => Observable<T>,
  limit: number,
  settle: (index: number, value: T) => R,
): Observable<(R | undefined)[]> {
  return new Observable<(R | undefined)[]>((subscriber) => {
    const results: (R | undefined)[] = new Array(count).fill(undefined);
    const running = new Subscription();
    const max = Math.max(1, limit);
    let started = 0;
    let active = 0;
    let finished = 0;
    const finishOne = (): void => {
      active--;
      finished++;
      if (finished < count) startMore();
      else {
        subscriber.next(results);
        subscriber.complete();
      }
    };
    const startMore = (): void => {
      while (active < max && started < count && !subscriber.closed) {
        const index = started++;
        let received = false;
        active++;
        running.add(
          project(index).subscribe({
            next: (value) => {
              if (received) return;
              received = true;
              try {
                results[index] = settle(index, value);
              } catch (error) {
                subscriber.error(error);
              }
            },
            error: (error: unknown) => subscriber.error(error),
            complete: finishOne,
          }),
        );
      }
    };
    if (count === 0) {
      subscriber.next(results);
      subscriber.complete();
      return undefined;
    }
    startMore();
    return running;
  });
}
