import { type Observer, Subscription, type Unsubscribable } from 'rxjs';

/**
 * The observer of an inner that its owner may start itself, without an Observable around
 * it (a tool call or a loop step run as phases): it passes on one error or completion, and
 * none once the owner's `running` subscription is closed, as a subscriber would; after its
 * end it stops the inner and takes it out of `running`. A subclass says what a value, the
 * error and the completion mean (`next`, `failed`, `completed`).
 */
export abstract class StartedInner<T> implements Observer<T> {
  // Not #private fields: with rxjs's `useDeprecatedNextContext`, methods run on a copy.
  /** Whether the inner errored or completed. */
  ended = false;
  /** What stops the inner, once it is running. */
  private stop: Subscription | undefined;

  constructor(protected readonly running: Subscription) {}

  abstract next(value: T): void;

  /** The inner's error, when it is the first end and the owner still runs. */
  protected abstract failed(error: unknown): void;

  /** The inner's completion, when it is the first end and the owner still runs. */
  protected abstract completed(): void;

  error(error: unknown): void {
    if (this.end()) this.failed(error);
    this.stopInner();
  }

  complete(): void {
    if (this.end()) this.completed();
    this.stopInner();
  }

  /**
   * Starts the inner with `start(this)`, keeping what stops it in `running`; an inner that
   * ended while starting (every phase synchronous) is stopped at once, not kept.
   */
  startWith(start: (observer: this) => Unsubscribable): void {
    const stop = start(this);
    if (this.ended) {
      stop.unsubscribe();
      return;
    }
    this.stop = stop instanceof Subscription ? stop : new Subscription(() => stop.unsubscribe());
    this.running.add(this.stop);
  }

  /** Marks the end; false when it already ended or the owner was unsubscribed. */
  private end(): boolean {
    if (this.ended) return false;
    this.ended = true;
    return !this.running.closed;
  }

  private stopInner(): void {
    const stop = this.stop;
    if (stop === undefined) return;
    this.stop = undefined;
    this.running.remove(stop);
    stop.unsubscribe();
  }
}
