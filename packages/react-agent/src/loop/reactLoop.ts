import { Observable, Subscription } from 'rxjs';
import type { FinalStep, RunnableStep, Step } from './step.js';

/** Where `runReactLoop` reports: each final step, then the end of the loop. */
export interface LoopObserver {
  final(step: FinalStep): void;
  error(error: unknown): void;
  complete(): void;
}

/**
 * The reason → act loop: runs `next(step)` for the first step and for every step it emits
 * (a final step is reported, not run), and completes once no step is running — what
 * `expand` does, in one subscriber rather than expand, filter, map, tap and finalize layers
 * that a parked call would hold. A step's error (or a throw in `next` or `final`) ends the
 * loop with that error, once; nothing is reported after that. Returns the subscription of
 * the running steps: unsubscribing it stops them.
 */
export function runReactLoop(
  first: Step,
  next: (step: RunnableStep) => Observable<Step>,
  observer: LoopObserver,
): Subscription {
  const running = new Subscription();
  let active = 0;
  let ended = false;
  const fail = (error: unknown): void => {
    if (ended) return;
    ended = true;
    observer.error(error);
  };
  const stepDone = (): void => {
    active--;
    if (active > 0 || ended) return;
    ended = true;
    observer.complete();
  };
  const run = (step: Step): void => {
    // A step still running after the end (until its owner unsubscribes) starts and reports nothing.
    if (ended) return;
    if (step.kind === 'final') {
      observer.final(step);
      return;
    }
    active++;
    running.add(
      next(step).subscribe({
        next: (following) => {
          try {
            run(following);
          } catch (error) {
            fail(error);
          }
        },
        error: fail,
        complete: stepDone,
      }),
    );
  };
  try {
    run(first);
  } catch (error) {
    fail(error);
  }
  if (active === 0 && !ended) {
    ended = true;
    observer.complete();
  }
  return running;
}

/**
 * `runReactLoop` as an Observable: cold; emits every final step, then completes; errors
 * with the first step error; unsubscribing stops the running steps.
 */
export function reactLoop(
  first: Step,
  next: (step: RunnableStep) => Observable<Step>,
): Observable<FinalStep> {
  return new Observable<FinalStep>((subscriber) =>
    runReactLoop(first, next, {
      final: (step) => subscriber.next(step),
      error: (error) => subscriber.error(error),
      complete: () => subscriber.complete(),
    }),
  );
}
