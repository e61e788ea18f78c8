import { defer, Observable, of, Subject, throwError, timer } from 'rxjs';
import { map, tap } from 'rxjs/operators';
import { describe, expect, it } from 'vitest';
import { runAll } from '../src/runAll.js';

describe('runAll', () => {
  it('emits the values in the items’ order, whatever order the runs finish in', async () => {
    const delays = [30, 5, 20, 0, 10];
    const values = await new Promise<number[]>((resolve, reject) =>
      runAll(delays, 3, (ms) => timer(ms).pipe(map(() => ms))).subscribe({
        next: resolve,
        error: reject,
      }),
    );
    expect(values).toEqual(delays);
  });

  it('keeps at most `concurrency` runs in flight', () => {
    const gates = Array.from({ length: 5 }, () => new Subject<number>());
    let running = 0;
    let most = 0;
    let result: number[] | undefined;
    runAll([0, 1, 2, 3, 4], 2, (i) =>
      defer(() => {
        most = Math.max(most, ++running);
        // Counted down before runAll hears of the completion (and may start the next run).
        return gates[i]!.pipe(tap({ complete: () => running-- }));
      }),
    ).subscribe((values) => {
      result = values;
    });
    expect(running).toBe(2);
    for (const i of [1, 0, 3, 2, 4]) {
      gates[i]!.next(i * 10);
      gates[i]!.complete();
    }
    expect(most).toBe(2);
    expect(result).toEqual([0, 10, 20, 30, 40]);
  });

  it('runs synchronous runs in one loop: 100,000 of them overflow no stack', () => {
    const items = Array.from({ length: 100_000 }, (_, i) => i);
    let result: number[] | undefined;
    runAll(items, 4, (i) => of(i * 2)).subscribe((values) => {
      result = values;
    });
    expect(result).toHaveLength(100_000);
    expect(result?.[99_999]).toBe(199_998);
  });

  it('emits an empty array for no items', () => {
    let result: unknown[] | undefined;
    runAll([], 1, () => of(1)).subscribe((values) => {
      result = values;
    });
    expect(result).toEqual([]);
  });

  it('cancels the runs in flight and starts no more when unsubscribed', () => {
    const torn: number[] = [];
    let started = 0;
    const subscription = runAll([0, 1, 2, 3], 2, (i) =>
      defer(() => {
        started++;
        return new Observable<number>(() => () => torn.push(i));
      }),
    ).subscribe();
    subscription.unsubscribe();
    expect(started).toBe(2);
    expect(torn.sort()).toEqual([0, 1]);
  });

  it('errors with a run’s error and cancels the others', () => {
    const torn: number[] = [];
    let error: unknown;
    runAll([0, 1, 2], 3, (i) =>
      i === 1
        ? throwError(() => new Error('run 1 failed'))
        : new Observable<number>(() => () => torn.push(i)),
    ).subscribe({ error: (e: unknown) => (error = e) });
    expect(String(error)).toContain('run 1 failed');
    expect(torn).toEqual([0]);
  });
});
