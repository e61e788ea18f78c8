import type { Observable, Observer, Subscriber, Subscription, TeardownLogic } from 'rxjs';
import type { HookEvent } from '../hooks/hookEvent.js';
import type { CallContext } from './callContext.js';
import { LiveSubscription } from './liveSubscription.js';

/**
 * What `Phases.afterHooks` needs of a call: its hooks, and whether anyone listens. A room
 * that can also `dispatch` (the agent's own call contexts can) runs synchronous hooks
 * without an Observable; its `dispatch` sends a throw in `done` to `fail`, as
 * `dispatchHooks` does.
 */
export type HookRoom = Pick<CallContext, 'notify' | 'listens'> & {
  dispatch?<E extends HookEvent>(
    event: E,
    done: (event: E) => void,
    fail: (error: unknown) => void,
    live: Subscription,
  ): void;
};

/** Where `Phases` sends its value, error and completion (a subscriber, or an observer acting as one). */
export type PhaseSink<R> = Pick<Subscriber<R>, 'next' | 'error' | 'complete'>;

/**
 * Runs the phases of one call or step (hooks, doCall, a model request, a tool, hooks …) one
 * after another inside its own `new Observable`, the way a chain of `concatMap`s would, but
 * holding one live subscription at a time: a call parked on its model request keeps one
 * subscriber here instead of an operator subscriber, its closures and an inner subscriber
 * per stage.
 *
 * Each phase is an Observable whose first value goes to a callback that starts the next
 * phase or ends with `finish`, `end` or `fail`. A phase's error, or a throw in its callback,
 * goes to the phase's `onError` (default: `fail`). `subscription` holds the live phases:
 * return it (or call `unsubscribe`) as the teardown, so unsubscribing stops the phase in
 * flight.
 *
 * @example
 * ```ts
 * // preReasoning hooks (which may change the messages), then the model step, then the reply:
 * const step = new Observable<Msg>((subscriber) => {
 *   const phases = new Phases<Msg>(subscriber);
 *   phases.afterHooks(context, preReasoning, (event) =>
 *     phases.after(replyTo(event.messages), (reply) => phases.finish(reply)),
 *   );
 *   return phases.subscription;
 * });
 * ```
 */
export class Phases<R> {
  /** The live phases: the teardown of the Observable that runs them. */
  readonly subscription: Subscription = new LiveSubscription();
  readonly #subscriber: PhaseSink<R>;
  #settled = false;
  #failFn: ((error: unknown) => void) | undefined;
  #endFn: (() => void) | undefined;

  /**
   * `subscriber`: the Observable's subscriber, or an observer that behaves like one (passes
   * on nothing after its error or completion, nor once its owner stopped listening).
   */
  constructor(subscriber: PhaseSink<R>) {
    this.#subscriber = subscriber;
  }

  /** Whether the phases ended (value, no value or error): a teardown after that is no cancel. */
  get settled(): boolean {
    return this.#settled;
  }

  /**
   * Subscribes to `source`. Its first value goes to `then`; its error, or a throw in `then`,
   * to `onError`; completing without a value runs `onEmpty` (default: end without a value,
   * as an empty inner Observable ends a `concatMap` chain).
   */
  after<T>(
    source: Observable<T>,
    then: (value: T) => void,
    onError: (error: unknown) => void = this.#failer(),
    onEmpty: () => void = this.#ender(),
  ): void {
    // Added to the container, not kept in a variable: a synchronous source runs the next
    // phase before its own subscribe() returns, and a closed subscription is not added.
    this.hold(source.subscribe(new PhaseObserver(this, then, onError, onEmpty)));
  }

  /**
   * Runs the hooks on `event` (through `room.dispatch`, else `room.notify`), then `then` with
   * the event as they left it. When nobody listens to events of its type, `then` runs
   * directly; when every hook is synchronous, no Observable is made either.
   */
  afterHooks<E extends HookEvent>(
    room: HookRoom,
    event: E,
    then: (event: E) => void,
    onError: (error: unknown) => void = this.#failer(),
  ): void {
    if (!room.listens(event.type)) this.run(then, event, onError);
    else if (room.dispatch === undefined) this.after(room.notify(event), then, onError);
    // `dispatch` sends a throw in `then` to `onError` itself: no closure per event.
    else room.dispatch(event, then, onError, this.subscription);
  }

  /** Runs `then(value)` now; a throw goes to `onError` (default: `fail`). */
  run<T>(
    then: (value: T) => void,
    value: T,
    onError: (error: unknown) => void = this.#failer(),
  ): void {
    try {
      then(value);
    } catch (error) {
      onError(error);
    }
  }

  /** The last phase: the values, error and completion of `source` become this Observable's. */
  forward(source: Observable<R>): void {
    // An observer, not the subscriber itself: rxjs would adopt a Subscriber as the source's own.
    this.hold(source.subscribe(new ForwardObserver(this, this.#subscriber)));
  }

  /** Emits `value` and completes. */
  finish(value: R): void {
    this.#settled = true;
    this.#subscriber.next(value);
    this.#subscriber.complete();
  }

  /** Completes without a value. */
  end(): void {
    this.#settled = true;
    this.#subscriber.complete();
  }

  /** Errors with `error`. */
  fail(error: unknown): void {
    this.#settled = true;
    this.#subscriber.error(error);
  }

  /**
   * Keeps `teardown` (a phase started by hand: a subscription, or what stops it) with the
   * live phases, so unsubscribing stops it; at once when they were unsubscribed. As
   * `subscription.add`, but the phase in flight is kept in a field, not in a finalizer list.
   */
  hold(teardown: TeardownLogic): void {
    (this.subscription as LiveSubscription).hold(teardown);
  }

  /** Unsubscribes the phases in flight. */
  unsubscribe(): void {
    this.subscription.unsubscribe();
  }

  /** `fail` as a function (the default `onError`), made once per Phases, not per phase. */
  #failer(): (error: unknown) => void {
    this.#failFn ??= (error) => this.fail(error);
    return this.#failFn;
  }

  /** `end` as a function (the default `onEmpty`), made once per Phases. */
  #ender(): () => void {
    this.#endFn ??= () => this.end();
    return this.#endFn;
  }
}

/**
 * The observer of one `after` phase: an object whose methods rxjs calls on it, rather than
 * three closures (and their context) per phase.
 */
class PhaseObserver<T> implements Observer<T> {
  // Not a #private field: with rxjs's `useDeprecatedNextContext`, methods run on a copy.
  private emitted = false;

  constructor(
    private readonly phases: Phases<unknown>,
    private readonly then: (value: T) => void,
    private readonly onError: (error: unknown) => void,
    private readonly onEmpty: () => void,
  ) {}

  next(value: T): void {
    if (this.emitted) return;
    this.emitted = true;
    this.phases.run(this.then, value, this.onError);
  }

  error(error: unknown): void {
    this.onError(error);
  }

  complete(): void {
    if (this.emitted) return;
    this.onEmpty();
  }
}

/** The observer of the `forward` phase: values to the subscriber, the end to the phases. */
class ForwardObserver<R> implements Observer<R> {
  constructor(
    private readonly phases: Phases<R>,
    private readonly subscriber: PhaseSink<R>,
  ) {}

  next(value: R): void {
    this.subscriber.next(value);
  }

  error(error: unknown): void {
    this.phases.fail(error);
  }

  complete(): void {
    this.phases.end();
  }
}
