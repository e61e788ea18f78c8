import {
  Observable,
  type Observer,
  type Subscriber,
  Subscription,
  type Unsubscribable,
} from 'rxjs';
import { StartedInner } from './startedInner.js';

/**
 * Starts inner `index`, sending its values, error and completion to `observer` (at most one
 * error or completion, and nothing once the run is unsubscribed, is passed on); returns what
 * stops it. What `project(index).subscribe(observer)` does, for an inner that needs no
 * Observable of its own around it (a tool call run as phases).
 */
export type StartInner<T> = (index: number, observer: Observer<T>) => Unsubscribable;

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
    runInOrder(count, subscribeTo(project), limit, settle, subscriber, (results) => {
      subscriber.next(results);
      subscriber.complete();
    }),
  );
}

/** `project(index).subscribe(observer)` as a `StartInner`. */
function subscribeTo<T>(project: (index: number) => Observable<T>): StartInner<T> {
  return (index, observer) => project(index).subscribe(observer);
}

/**
 * The engine of `mergeInOrder`, for a caller that makes its own value of the results and
 * starts its inners itself (`start`, see `StartInner`): `done(results)` runs once the last
 * inner finished (it emits and completes), errors go to `subscriber`. Returns the
 * subscription of the running inners (the teardown).
 */
export function runInOrder<T, R>(
  count: number,
  start: StartInner<T>,
  limit: number,
  settle: (index: number, value: T) => R,
  subscriber: Pick<Subscriber<never>, 'error' | 'closed'>,
  done: (results: (R | undefined)[]) => void,
): Subscription | undefined {
  const run = new InOrderRun(count, start, Math.max(1, limit), settle, subscriber, done);
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
    readonly start: StartInner<T>,
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
      new InnerObserver(this, index).startWith((inner) => this.start(index, inner));
    }
  }

  finishOne(): void {
    this.#active--;
    this.#finished++;
    if (this.#finished < this.count) this.startMore();
    else this.done(this.results);
  }
}

/**
 * The observer of one inner: an object whose methods rxjs (or the inner itself) calls, not
 * three closures. Its first value is settled into the results; its end is counted once.
 */
class InnerObserver<T, R> extends StartedInner<T> {
  private received = false;

  constructor(
    private readonly run: InOrderRun<T, R>,
    private readonly index: number,
  ) {
    super(run.running);
  }

  next(value: T): void {
    if (this.received || this.ended || this.running.closed) return;
    this.received = true;
    const { run, index } = this;
    try {
      run.results[index] = run.settle(index, value);
    } catch (error) {
      run.subscriber.error(error);
    }
  }

  protected failed(error: unknown): void {
    this.run.subscriber.error(error);
  }

  protected completed(): void {
    this.run.finishOne();
  }
}
