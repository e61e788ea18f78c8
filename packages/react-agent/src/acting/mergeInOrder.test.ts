import { NEVER, type Observable, type Observer, of, Subscription } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it, vi } from 'vitest';
import { mergeInOrder, runInOrder } from './mergeInOrder.js';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const upper = (_index: number, value: string) => value.toUpperCase();

describe('mergeInOrder', () => {
  it('runs at most limit inners at once, starting the next as one finishes', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const inners = [cold('-----a|'), cold('-b|'), cold('--c|')];
      const merged = mergeInOrder(3, (index) => inners[index]!, 2, upper);

      expectObservable(merged).toBe('------(x|)', { x: ['A', 'B', 'C'] });
      expectSubscriptions(inners[0]!.subscriptions).toBe('^-----!');
      expectSubscriptions(inners[1]!.subscriptions).toBe('^-!');
      expectSubscriptions(inners[2]!.subscriptions).toBe('--^--!');
    });
  });

  it('emits the results in index order whatever order the inners finish in', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const inners = [cold('---a|'), cold('--b|'), cold('-c|')];
      const merged = mergeInOrder(3, (index) => inners[index]!, 3, upper);
      expectObservable(merged).toBe('----(x|)', { x: ['A', 'B', 'C'] });
    });
  });

  it('settles each inner on its first value, as it arrives, and ignores the rest', () => {
    scheduler().run(({ cold, expectObservable, flush }) => {
      const settled: string[] = [];
      const inners = [cold('--a-z|'), cold('-b|')];
      const merged = mergeInOrder(
        2,
        (index) => inners[index]!,
        2,
        (index, value: string) => {
          settled.push(`${index}:${value}`);
          return value;
        },
      );
      expectObservable(merged).toBe('-----(x|)', { x: ['a', 'b'] });
      flush();
      expect(settled).toEqual(['1:b', '0:a']);
    });
  });

  it('leaves undefined for an inner that completes without a value', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const inners = [cold('--|'), cold('-b|')];
      const merged = mergeInOrder(2, (index) => inners[index]!, 2, upper);
      expectObservable(merged).toBe('--(x|)', { x: [undefined, 'B'] });
    });
  });

  it('errors with the first inner error and unsubscribes the inners still running', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const inners = [cold('------a|'), cold('--#', {}, new Error('tool broke')), cold('-c|')];
      const merged = mergeInOrder(3, (index) => inners[index]!, 2, upper);

      expectObservable(merged).toBe('--#', {}, new Error('tool broke'));
      expectSubscriptions(inners[0]!.subscriptions).toBe('^-!');
      expectSubscriptions(inners[2]!.subscriptions).toBe([]);
    });
  });

  it('errors with a throw in settle and unsubscribes the others', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const inners = [cold('-a|'), cold('----b|')];
      const merged = mergeInOrder(
        2,
        (index) => inners[index]!,
        2,
        () => {
          throw new Error('settle broke');
        },
      );
      expectObservable(merged).toBe('-#', {}, new Error('settle broke'));
      expectSubscriptions(inners[1]!.subscriptions).toBe('^!');
    });
  });

  it('emits an empty array at once for count 0, without calling project', () => {
    scheduler().run(({ expectObservable }) => {
      const project = vi.fn((): Observable<string> => NEVER);
      expectObservable(mergeInOrder(0, project, 2, upper)).toBe('(x|)', { x: [] });
      expect(project).not.toHaveBeenCalled();
    });
  });

  it('unsubscribes the running inners and starts no more when unsubscribed', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const inners = [cold('-----a|'), cold('-b|'), cold('-----c|')];
      const merged = mergeInOrder(3, (index) => inners[index]!, 2, upper);

      expectObservable(merged, '^---!').toBe('-----');
      expectSubscriptions(inners[0]!.subscriptions).toBe('^---!');
      expectSubscriptions(inners[1]!.subscriptions).toBe('^-!');
      expectSubscriptions(inners[2]!.subscriptions).toBe('--^-!');
    });
  });

  it('runs one at a time for a limit below 1, and works with synchronous inners', () => {
    const started: number[] = [];
    let result: unknown;
    mergeInOrder(
      3,
      (index) => {
        started.push(index);
        return of(`v${index}`);
      },
      0,
      (_index, value: string) => value,
    ).subscribe((values) => {
      result = values;
    });
    expect(started).toEqual([0, 1, 2]);
    expect(result).toEqual(['v0', 'v1', 'v2']);
  });

  it('is cold: nothing starts until subscribed', () => {
    const project = vi.fn((): Observable<string> => NEVER);
    const merged = mergeInOrder(2, project, 2, upper);
    expect(project).not.toHaveBeenCalled();
    merged.subscribe().unsubscribe();
    expect(project).toHaveBeenCalledTimes(2);
  });

  describe('runInOrder with inners started by hand (no Observable each)', () => {
    /** Inners that keep their observer, each stopped through its own Subscription. */
    function handStarted() {
      const observers: Observer<string>[] = [];
      const stops: Subscription[] = [];
      const start = (_index: number, observer: Observer<string>) => {
        observers.push(observer);
        const stop = new Subscription();
        stops.push(stop);
        return stop;
      };
      return { observers, stops, start };
    }

    it('passes one end per inner and stops each inner once it ended', () => {
      const { observers, stops, start } = handStarted();
      const done = vi.fn();
      const error = vi.fn();
      const running = runInOrder(2, start, 2, upper, { error, closed: false }, done);
      observers[1]!.next('b');
      observers[1]!.complete();
      expect(stops[1]!.closed).toBe(true);
      observers[1]!.complete(); // a second end is not a second finished inner
      observers[1]!.error(new Error('late'));
      expect(done).not.toHaveBeenCalled();
      observers[0]!.next('a');
      observers[0]!.next('z'); // only the first value counts
      observers[0]!.complete();
      expect(done).toHaveBeenCalledWith(['A', 'B']);
      expect(error).not.toHaveBeenCalled();
      expect(stops[0]!.closed).toBe(true);
      running?.unsubscribe();
    });

    it('passes nothing on once unsubscribed, and stops the inners still running', () => {
      const { observers, stops, start } = handStarted();
      const settle = vi.fn(upper);
      const done = vi.fn();
      const error = vi.fn();
      const running = runInOrder(2, start, 2, settle, { error, closed: false }, done);
      running?.unsubscribe();
      expect(stops.every((stop) => stop.closed)).toBe(true);
      observers[0]!.next('a');
      observers[0]!.complete();
      observers[1]!.error(new Error('late'));
      expect(settle).not.toHaveBeenCalled();
      expect(done).not.toHaveBeenCalled();
      expect(error).not.toHaveBeenCalled();
    });

    it('stops an inner that ended while it was starting (a synchronous one) at once', () => {
      const stops: Subscription[] = [];
      const done = vi.fn();
      runInOrder(
        2,
        (index, observer: Observer<string>) => {
          observer.next(`v${index}`);
          observer.complete();
          const stop = new Subscription();
          stops.push(stop);
          return stop;
        },
        2,
        (_index, value: string) => value,
        { error: vi.fn(), closed: false },
        done,
      );
      expect(done).toHaveBeenCalledWith(['v0', 'v1']);
      expect(stops.every((stop) => stop.closed)).toBe(true);
    });
  });
});
