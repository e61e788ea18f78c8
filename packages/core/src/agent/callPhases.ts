import { type Observable, type Subscriber, Subscription } from 'rxjs';

/**
 * Runs the phases of one `call()` one after another inside the call's own `new Observable`
 * (preCall hooks, doCall, postCall hooks, broadcast; or the interrupt reply; or the error
 * hooks). Each phase is subscribed when the one before emits, as in a `concatMap` chain, but
 * a call waiting on its model (a parked agent) holds one live subscription here instead of
 * an operator subscriber, its closures and an inner subscriber per stage.
 */
export class CallPhases<R> {
  readonly #live = new Subscription();
  readonly #subscriber: Subscriber<R>;
  #settled = false;

  constructor(subscriber: Subscriber<R>) {
    this.#subscriber = subscriber;
  }

  /** Whether the call ended (reply, no reply or error): a teardown after that is no cancel. */
  get settled(): boolean {
    return this.#settled;
  }

  /**
   * Subscribes to `source`. Its first value goes to `then`; its error, or a throw in `then`,
   * to `onError`; completing without a value runs `onEmpty` (default: end the call without a
   * reply, as an empty inner Observable ends a `concatMap` chain).
   */
  after<T>(
    source: Observable<T>,
    then: (value: T) => void,
    onError: (error: unknown) => void,
    onEmpty: () => void = () => this.end(),
  ): void {
    let emitted = false;
    // Added to the container, not kept in a variable: a synchronous source runs the next
    // phase before its own subscribe() returns, and a closed subscription is not added.
    this.#live.add(
      source.subscribe({
        next: (value) => {
          if (emitted) return;
          emitted = true;
          this.run(then, value, onError);
        },
        error: onError,
        complete: () => {
          if (!emitted) onEmpty();
        },
      }),
    );
  }

  /** Runs `then(value)` now; a throw goes to `onError`. */
  run<T>(then: (value: T) => void, value: T, onError: (error: unknown) => void): void {
    try {
      then(value);
    } catch (error) {
      onError(error);
    }
  }

  /** Ends the call with its reply. */
  finish(value: R): void {
    this.#settled = true;
    this.#subscriber.next(value);
    this.#subscriber.complete();
  }

  /** Ends the call without a reply. */
  end(): void {
    this.#settled = true;
    this.#subscriber.complete();
  }

  /** Ends the call with `error`. */
  fail(error: unknown): void {
    this.#settled = true;
    this.#subscriber.error(error);
  }

  /** Unsubscribes the phase in flight. */
  unsubscribe(): void {
    this.#live.unsubscribe();
  }
}
