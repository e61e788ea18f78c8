import type { HookEvent } from '@rxagent/core';
import { type Observable, type Subscriber, Subscription } from 'rxjs';
import type { StepHost } from './stepHost.js';

/**
 * Runs the phases of one step (hooks, model, tool, hooks) one after another inside the
 * step's own `new Observable`, where a chain of `defer` and `concatMap`s would keep an
 * operator subscriber, its closures and an inner subscriber alive per phase for as long as
 * the step runs (a parked call holds them all while its request is open).
 *
 * Each phase is an Observable whose values go to a callback that may start the next phase.
 * An error of a phase, or a throw in a callback, errors the step's subscriber (as a throw in
 * a `concatMap` projection would). `subscription` holds the live phase: return it as the
 * step's teardown, so unsubscribing the step unsubscribes the phase in flight.
 */
export class StepPhases<R> {
  /** The live phases; the step's teardown. */
  readonly subscription = new Subscription();

  constructor(private readonly subscriber: Subscriber<R>) {}

  /**
   * Subscribes to `source` and hands each of its values to `then`. Its completion is
   * ignored: the step completes when the last phase's callback completes the subscriber.
   */
  after<T>(source: Observable<T>, then: (value: T) => void): void {
    // Added to the container (not kept in a variable): a synchronous source runs the next
    // phase before its own subscribe() returns, and a closed subscription is not added.
    this.subscription.add(
      source.subscribe({
        next: (value) => this.#run(then, value),
        error: (error: unknown) => this.subscriber.error(error),
      }),
    );
  }

  /**
   * Runs the hooks on `event` (through `host.notify`), then `then` with the event as they
   * left it. With no hook and no stream() subscriber, `notify` would emit the same event at
   * once: `then` runs directly, without an Observable.
   */
  afterHooks<E extends HookEvent>(host: StepHost, event: E, then: (event: E) => void): void {
    if (host.hasEventListeners()) this.after(host.notify(event), then);
    else this.#run(then, event);
  }

  /** The last phase: the values, error and completion of `source` become the step's. */
  forward(source: Observable<R>): void {
    // An observer, not the subscriber itself: rxjs would adopt a Subscriber as the source's own.
    this.subscription.add(
      source.subscribe({
        next: (value) => this.subscriber.next(value),
        error: (error: unknown) => this.subscriber.error(error),
        complete: () => this.subscriber.complete(),
      }),
    );
  }

  /** Emits `value` and completes the step. */
  finish(value: R): void {
    this.subscriber.next(value);
    this.subscriber.complete();
  }

  #run<T>(then: (value: T) => void, value: T): void {
    try {
      then(value);
    } catch (error) {
      this.subscriber.error(error);
    }
  }
}
