import { Observable, type Observer, Subscription, type Unsubscribable } from 'rxjs';
import { StartedInner } from '../acting/startedInner.js';
import type { FinalStep, RunnableStep, Step } from './step.js';

/** Where `runReactLoop` reports: each final step, then the end of the loop. */
export interface LoopObserver {
  final(step: FinalStep): void;
  error(error: unknown): void;
  complete(): void;
}

/**
 * Where a step the loop starts itself sends the steps it emits and its end. `closed` is
 * true once the step ended or the loop stopped: nothing sent after that is passed on.
 */
export type StepSink = Observer<Step> & { readonly closed: boolean };

/**
 * A step the loop starts itself, without an Observable of its own (a reasoning or acting
 * step run as phases): what subscribing to that Observable would do, with `sink` as its
 * subscriber. Returns what stops the step.
 */
export type StepStart = (sink: StepSink) => Unsubscribable;

/**
 * The reason → act loop: runs `next(step)` for the first step and for every step it emits
 * (a final step is reported, not run), and completes once no step is running — what
 * `expand` does, in one subscriber rather than expand, filter, map, tap and finalize layers
 * that a parked call would hold. `next` gives an Observable of the step, or a `StepStart`
 * the loop calls itself (no Observable per step). A step's error (or a throw in `next` or
 * `final`) ends the loop with that error, once; nothing is reported after that. Returns the
 * subscription of the running steps: unsubscribing it stops them.
 *
 * The loop is a trampoline: a step emitted while another step is still starting (a model
 * and tools that answer synchronously, a replayed session) is queued and started once the
 * emitting step's own frames have returned, so the stack stays as deep at the thousandth
 * step as at the first, and a step's teardown (its abort listeners, its timers) runs before
 * the step after it starts. Steps still start in the order they were emitted.
 */
export function runReactLoop(
  first: Step,
  next: (step: RunnableStep) => Observable<Step> | StepStart,
  observer: LoopObserver,
): Subscription {
  const loop = new ReactLoopRun(next, observer);
  loop.run(first);
  return loop.running;
}

/** The state of one `runReactLoop`: its running and queued steps, and whether it ended. */
class ReactLoopRun {
  readonly running = new Subscription();
  /** Steps started and not ended. */
  #active = 0;
  /** Steps emitted while a step was starting, to start once it returned (in order). */
  readonly #queued: Step[] = [];
  /** Whether a `run` below on the stack is starting the queued steps. */
  #draining = false;
  #ended = false;

  constructor(
    readonly next: (step: RunnableStep) => Observable<Step> | StepStart,
    readonly observer: LoopObserver,
  ) {}

  /** Whether the loop ended (error or completion) or was unsubscribed. */
  get stopped(): boolean {
    return this.#ended || this.running.closed;
  }

  /**
   * Starts `step` (reports it, when final), and every step emitted meanwhile, one after
   * another in this frame; called while a step is starting, it only queues `step`.
   */
  run(step: Step): void {
    // A step still running after the end (until its owner unsubscribes) starts and reports nothing.
    if (this.stopped) return;
    this.#queued.push(step);
    if (this.#draining) return;
    this.#draining = true;
    try {
      for (let queued = this.#queued.shift(); queued; queued = this.#queued.shift()) {
        if (this.stopped) break;
        this.#start(queued);
      }
    } finally {
      this.#queued.length = 0;
      this.#draining = false;
    }
    this.completeIfIdle();
  }

  fail(error: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.observer.error(error);
  }

  stepDone(): void {
    this.#active--;
    this.completeIfIdle();
  }

  completeIfIdle(): void {
    if (this.#active > 0 || this.#draining || this.#ended) return;
    this.#ended = true;
    this.observer.complete();
  }

  /** Starts one step; its throw (in `next` or `final`) ends the loop. */
  #start(step: Step): void {
    try {
      if (step.kind === 'final') {
        this.observer.final(step);
        return;
      }
      this.#active++;
      const source = this.next(step);
      const sink = new StepObserver(this);
      if (typeof source !== 'function') {
        this.running.add(source.subscribe(sink));
        return;
      }
      sink.startWith(source);
    } catch (error) {
      this.fail(error);
    }
  }
}

/**
 * The subscriber of one step: its steps go to the loop, its end is counted once, and
 * nothing passes once the step ended or the loop stopped.
 */
class StepObserver extends StartedInner<Step> implements StepSink {
  constructor(private readonly loop: ReactLoopRun) {
    super(loop.running);
  }

  get closed(): boolean {
    return this.ended || this.loop.stopped;
  }

  next(following: Step): void {
    if (!this.closed) this.loop.run(following);
  }

  protected failed(error: unknown): void {
    this.loop.fail(error);
  }

  protected completed(): void {
    this.loop.stepDone();
  }
}

/** A step as an Observable (a `StepStart` subscribed through one), e.g. for a wrapper that pipes it. */
export function stepObservable(source: Observable<Step> | StepStart): Observable<Step> {
  return typeof source === 'function'
    ? new Observable<Step>((subscriber) => source(subscriber))
    : source;
}

/**
 * `runReactLoop` as an Observable: cold; emits every final step, then completes; errors
 * with the first step error; unsubscribing stops the running steps.
 */
export function reactLoop(
  first: Step,
  next: (step: RunnableStep) => Observable<Step> | StepStart,
): Observable<FinalStep> {
  return new Observable<FinalStep>((subscriber) =>
    runReactLoop(first, next, {
      final: (step) => subscriber.next(step),
      error: (error) => subscriber.error(error),
      complete: () => subscriber.complete(),
    }),
  );
}
