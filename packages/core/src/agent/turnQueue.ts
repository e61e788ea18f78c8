import { Observable, type Subscriber, type Subscription } from 'rxjs';

/** A run waiting for its turn: starts it when the queue gets to it. */
interface Waiting {
  start(): void;
}

/**
 * Runs Observables one at a time, first come first served. `run(start)` is cold: on
 * subscription it starts `start()` at once when nothing runs and nobody waits, else when
 * its turn comes (after `isBusy()` turned false and the queue was kicked). Unsubscribing a
 * waiting run removes it from the queue; unsubscribing a running one unsubscribes it.
 *
 * A turn starts on a microtask after the previous one released the agent, so the previous
 * run's subscriber gets its reply before the next run starts.
 */
export class TurnQueue {
  readonly #waiting: Waiting[] = [];
  readonly #isBusy: () => boolean;
  #scheduled = false;

  constructor(isBusy: () => boolean) {
    this.#isBusy = isBusy;
  }

  /** How many runs are waiting (the running one excluded). */
  get length(): number {
    return this.#waiting.length;
  }

  /** `start()`'s Observable, subscribed when its turn comes. */
  run<T>(start: () => Observable<T>): Observable<T> {
    return new Observable<T>((subscriber) => {
      let inner: Subscription | undefined;
      const waiting: Waiting = { start: () => (inner = this.#subscribe(start, subscriber)) };
      if (!this.#isBusy() && this.#waiting.length === 0) waiting.start();
      else this.#waiting.push(waiting);
      return () => {
        const index = this.#waiting.indexOf(waiting);
        if (index >= 0) this.#waiting.splice(index, 1);
        inner?.unsubscribe();
      };
    });
  }

  /** Starts the next waiting run (on a microtask) when nothing runs any more. */
  kick(): void {
    if (this.#scheduled || this.#waiting.length === 0) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      if (this.#isBusy()) return;
      this.#waiting.shift()?.start();
    });
  }

  #subscribe<T>(start: () => Observable<T>, subscriber: Subscriber<T>): Subscription {
    try {
      return start().subscribe(subscriber);
    } catch (error) {
      subscriber.error(error);
      this.kick();
      return subscriber;
    }
  }
}
