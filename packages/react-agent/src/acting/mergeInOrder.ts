import { Observable, type Observer, type Subscriber, Subscription } from 'rxjs';

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
  return new Observable<(R | undefined)[]>((subscriber) =>
    runInOrder(count, project, limit, settle, subscriber, (results) => {
      subscriber.next(results);
      subscriber.complete();
    }),
  );
}

/**
 * The engine of `mergeInOrder`, for a caller that makes its own value of the results:
 * `done(results)` runs once the last inner finished (it emits and completes), errors go to
 * `subscriber`. Returns the subscription of the running inners (the teardown).
 */
export function runInOrder<T, R>(
  count: number,
  project: (index: number) => Observable<T>,
  limit: number,
  settle: (index: number, value: T) => R,
  subscriber: Pick<Subscriber<never>, 'error' | 'closed'>,
  done: (results: (R | undefined)[]) => void,
): Subscription | undefined {
  const run = new InOrderRun(count, project, Math.max(1, limit), settle, subscriber, done);
  if (count === 0) {
    done(run.results);
    return undefined;
  }
  run.startMore();
  return run.running;
}

/** The state of one `runInOrder`: the inners are started and settled through it. */
class InOrderRun<T, R> {
  readonly results: (R | undefined)[];
  readonly running = new Subscription();
  #started = 0;
  #active = 0;
  #finished = 0;

  constructor(
    readonly count: number,
    readonly project: (index: number) => Observable<T>,
    readonly max: number,
    readonly settle: (index: number, value: T) => R,
    readonly subscriber: Pick<Subscriber<never>, 'error' | 'closed'>,
    readonly done: (results: (R | undefined)[]) => void,
  ) {
    this.results = new Array<R | undefined>(count).fill(undefined);
  }

  startMore(): void {
    while (this.#active < this.max && this.#started < this.count && !this.subscriber.closed) {
      const index = this.#started++;
      this.#active++;
      this.running.add(this.project(index).subscribe(new InnerObserver(this, index)));
    }
  }

  finishOne(): void {
    this.#active--;
    this.#finished++;
    if (this.#finished < this.count) this.startMore();
    else this.done(this.results);
  }
}

/** The observer of one inner: an object whose methods rxjs calls, not three closures. */
class InnerObserver<T, R> implements Observer<T> {
  // Not a #private field: with rxjs's `useDeprecatedNextContext`, methods run on a copy.
  private received = false;

  constructor(
    private readonly run: InOrderRun<T, R>,
    private readonly index: number,
  ) {}

  next(value: T): void {
    if (this.received) return;
    this.received = true;
    const { run, index } = this;
    try {
      run.results[index] = run.settle(index, value);
    } catch (error) {
      run.subscriber.error(error);
    }
  }

  error(error: unknown): void {
    this.run.subscriber.error(error);
  }

  complete(): void {
    this.run.finishOne();
  }
}
