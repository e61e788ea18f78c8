import { EMPTY, NEVER, Observable, of, Subject, throwError } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { Phases } from './phases.js';

/** A call Observable whose body drives `Phases`; records what its subscriber saw. */
function runCall(body: (phases: Phases<string>) => void) {
  const seen: string[] = [];
  let phases!: Phases<string>;
  const subscription = new Observable<string>((subscriber) => {
    phases = new Phases(subscriber);
    body(phases);
    return () => phases.unsubscribe();
  }).subscribe({
    next: (value) => seen.push(`next ${value}`),
    error: (error: unknown) => seen.push(`error ${(error as Error).message}`),
    complete: () => seen.push('complete'),
  });
  return { seen, subscription, phases };
}

describe('Phases', () => {
  it('runs synchronous phases in order and finishes with the reply', () => {
    const { seen, phases } = runCall((p) =>
      p.after(
        of('a'),
        (a) => p.after(of(`${a}b`), (ab) => p.finish(`${ab}c`), p.fail.bind(p)),
        p.fail.bind(p),
      ),
    );
    expect(seen).toEqual(['next abc', 'complete']);
    expect(phases.settled).toBe(true);
  });

  it('takes only the first value of a phase, as a single-valued concatMap would', () => {
    const then = vi.fn();
    runCall((p) => p.after(of(1, 2, 3), then, p.fail.bind(p)));
    expect(then).toHaveBeenCalledTimes(1);
    expect(then).toHaveBeenCalledWith(1);
  });

  it('hands a phase error and a throw in its callback to onError', () => {
    const onError = vi.fn();
    runCall((p) => {
      p.after(
        throwError(() => new Error('source')),
        () => {},
        onError,
      );
      p.after(
        of(1),
        () => {
          throw new Error('callback');
        },
        onError,
      );
    });
    expect(onError.mock.calls.map(([error]) => (error as Error).message)).toEqual([
      'source',
      'callback',
    ]);
  });

  it('ends the call without a reply when a phase completes empty, unless told otherwise', () => {
    expect(runCall((p) => p.after(EMPTY, () => {}, p.fail.bind(p))).seen).toEqual(['complete']);
    const onEmpty = vi.fn();
    const { seen } = runCall((p) => p.after(EMPTY, () => {}, p.fail.bind(p), onEmpty));
    expect(onEmpty).toHaveBeenCalledOnce();
    expect(seen).toEqual([]);
  });

  it('unsubscribes the phase in flight, and only that one is held', () => {
    const teardown = vi.fn();
    const later = new Subject<string>();
    const { subscription, phases } = runCall((p) =>
      p.after(
        later,
        () =>
          p.after(
            new Observable<string>(() => teardown),
            () => {},
            () => {},
          ),
        () => {},
      ),
    );
    later.next('go');
    expect(later.observed).toBe(true); // a phase that emitted stays subscribed until it ends
    later.complete();
    expect(later.observed).toBe(false);
    expect(phases.settled).toBe(false);
    subscription.unsubscribe();
    expect(teardown).toHaveBeenCalledOnce();
  });

  it('emits nothing while a phase is pending, and fails the call with an error', () => {
    const { seen } = runCall((p) =>
      p.after(
        NEVER,
        () => {},
        () => {},
        () => {},
      ),
    );
    expect(seen).toEqual([]);
    expect(runCall((p) => p.fail(new Error('boom'))).seen).toEqual(['error boom']);
  });
});
