import { assistantMsg } from '@rxagent/core';
import { from, NEVER, type Observable, Subject, Subscription, throwError } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it, vi } from 'vitest';
import { reactLoop, runReactLoop, type StepSink } from './reactLoop.js';
import type { FinalStep, RunnableStep, Step } from './step.js';

const reason: RunnableStep = { kind: 'reason' };
const summary: RunnableStep = { kind: 'summary' };
const act: RunnableStep = { kind: 'act', calls: [], invalidArguments: {} };
const final = (text: string): FinalStep => ({
  kind: 'final',
  reply: assistantMsg(text),
  reason: 'stop',
});
const f = final('f');
const g = final('g');
/** Marble values: `r` reason, `s` summary, `a` act, `f` and `g` final steps. */
const values = { r: reason, s: summary, a: act, f, g };

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

/** `next` for the loop: each runnable step kind runs the Observable given for it. */
const stepsBy =
  (byKind: Partial<Record<RunnableStep['kind'], Observable<Step>>>) =>
  (step: RunnableStep): Observable<Step> => {
    const steps = byKind[step.kind];
    if (steps === undefined) throw new Error(`no ${step.kind} step in this spec`);
    return steps;
  };

describe('reactLoop', () => {
  it('emits a final first step without running anything, then completes', () => {
    scheduler().run(({ expectObservable }) => {
      const next = vi.fn();
      expectObservable(reactLoop(f, next)).toBe('(f|)', values);
      expect(next).not.toHaveBeenCalled();
    });
  });

  it('runs each runnable step a step emits and emits the final steps it reaches', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const reasoning = cold<Step>('--s|', values);
      const summarising = cold<Step>('--f|', values);
      const loop = reactLoop(reason, stepsBy({ reason: reasoning, summary: summarising }));

      expectObservable(loop).toBe('----f|', values);
      expectSubscriptions(reasoning.subscriptions).toBe('^--!');
      expectSubscriptions(summarising.subscriptions).toBe('--^--!');
    });
  });

  it('completes when no step is running any more, even without a final step', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const reasoning = cold<Step>('--s---|', values);
      const summarising = cold<Step>('-|', values);
      expectObservable(
        reactLoop(reason, stepsBy({ reason: reasoning, summary: summarising })),
      ).toBe('------|');
    });
  });

  it('runs the steps a step emits concurrently, as expand does', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const reasoning = cold<Step>('(sa|)', values);
      const summarising = cold<Step>('---f|', values);
      const acting = cold<Step>('-g|', values);
      const loop = reactLoop(
        reason,
        stepsBy({ reason: reasoning, summary: summarising, act: acting }),
      );

      expectObservable(loop).toBe('-g-f|', values);
      expectSubscriptions(summarising.subscriptions).toBe('^---!');
      expectSubscriptions(acting.subscriptions).toBe('^-!');
    });
  });

  it('ends with the first step error, once, and unsubscribes the steps still running', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const reasoning = cold<Step>('(sa|)', values);
      const summarising = cold<Step>('--#', values, new Error('summary failed'));
      const acting = cold<Step>('----f|', values);
      const loop = reactLoop(
        reason,
        stepsBy({ reason: reasoning, summary: summarising, act: acting }),
      );

      expectObservable(loop).toBe('--#', values, new Error('summary failed'));
      expectSubscriptions(acting.subscriptions).toBe('^-!');
    });
  });

  it('ends with a throw in next as its error', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const reasoning = cold<Step>('-s|', values);
      expectObservable(reactLoop(reason, stepsBy({ reason: reasoning }))).toBe(
        '-#',
        values,
        new Error('no summary step in this spec'),
      );
    });
  });

  it('tears down the running steps when unsubscribed', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const reasoning = cold<Step>('(sa)', values);
      const summarising = cold<Step>('------f|', values);
      const acting = cold<Step>('-----g|', values);
      const loop = reactLoop(
        reason,
        stepsBy({ reason: reasoning, summary: summarising, act: acting }),
      );

      expectObservable(loop, '^--!').toBe('---', values);
      expectSubscriptions(reasoning.subscriptions).toBe('^--!');
      expectSubscriptions(summarising.subscriptions).toBe('^--!');
      expectSubscriptions(acting.subscriptions).toBe('^--!');
    });
  });

  it('is cold: each subscription runs the loop from its first step', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const reasoning = cold<Step>('-f|', values);
      const loop = reactLoop(reason, stepsBy({ reason: reasoning }));
      expectObservable(loop).toBe('-f|', values);
      expectObservable(loop).toBe('-f|', values);
      expectSubscriptions(reasoning.subscriptions).toBe(['^-!', '^-!']);
    });
  });
});

describe('runReactLoop', () => {
  it('reports nothing after an error, though a step still running emits a final step', () => {
    const failing = new Subject<Step>();
    const finishing = new Subject<Step>();
    const observer = { final: vi.fn(), error: vi.fn(), complete: vi.fn() };
    const first = new Subject<Step>();
    runReactLoop(reason, stepsBy({ reason: first, summary: failing, act: finishing }), observer);
    first.next(summary);
    first.next(act);

    failing.error(new Error('boom'));
    finishing.next(f);
    finishing.complete();

    expect(observer.error).toHaveBeenCalledOnce();
    expect(observer.final).not.toHaveBeenCalled();
    expect(observer.complete).not.toHaveBeenCalled();
  });

  it('starts no step after an error, even one emitted in the same turn', () => {
    const started: string[] = [];
    const observer = { final: vi.fn(), error: vi.fn(), complete: vi.fn() };
    const steps = stepsBy({
      reason: from<Step[]>([summary, act]),
      summary: throwError(() => new Error('boom')),
      act: NEVER,
    });
    runReactLoop(
      reason,
      (step) => {
        started.push(step.kind);
        return steps(step);
      },
      observer,
    );

    expect(observer.error).toHaveBeenCalledOnce();
    expect(started).toEqual(['reason', 'summary']);
  });

  describe('steps the loop starts itself (StepStart)', () => {
    /** A `next` whose steps are started by hand: their sinks and stops, in start order. */
    function handStarted() {
      const sinks: StepSink[] = [];
      const stops: Subscription[] = [];
      const next = () => (sink: StepSink) => {
        sinks.push(sink);
        const stop = new Subscription();
        stops.push(stop);
        return stop;
      };
      return { sinks, stops, next };
    }

    it('runs the steps a started step emits, counts its end once and then stops it', () => {
      const { sinks, stops, next } = handStarted();
      const observer = { final: vi.fn(), error: vi.fn(), complete: vi.fn() };
      runReactLoop(reason, next, observer);
      sinks[0]!.next(act);
      expect(sinks).toHaveLength(2);
      sinks[0]!.complete();
      expect(stops[0]!.closed).toBe(true);
      expect(sinks[0]!.closed).toBe(true);
      sinks[0]!.complete(); // a second end is no second finished step
      sinks[0]!.next(act); // nor does a step emit after its end
      sinks[0]!.error(new Error('late'));
      expect(sinks).toHaveLength(2);
      expect(observer.complete).not.toHaveBeenCalled();
      sinks[1]!.next(f);
      sinks[1]!.complete();
      expect(observer.final).toHaveBeenCalledWith(f);
      expect(observer.complete).toHaveBeenCalledOnce();
      expect(observer.error).not.toHaveBeenCalled();
    });

    it('passes nothing on once unsubscribed, and stops the steps still running', () => {
      const { sinks, stops, next } = handStarted();
      const observer = { final: vi.fn(), error: vi.fn(), complete: vi.fn() };
      const running = runReactLoop(reason, next, observer);
      sinks[0]!.next(act);
      running.unsubscribe();
      expect(stops.every((stop) => stop.closed)).toBe(true);
      expect(sinks.every((sink) => sink.closed)).toBe(true);
      sinks[1]!.next(f);
      sinks[1]!.error(new Error('late'));
      sinks[0]!.complete();
      expect(observer.final).not.toHaveBeenCalled();
      expect(observer.error).not.toHaveBeenCalled();
      expect(observer.complete).not.toHaveBeenCalled();
    });

    it('stops a step that ended while starting (every phase synchronous) at once', () => {
      const stops: Subscription[] = [];
      const observer = { final: vi.fn(), error: vi.fn(), complete: vi.fn() };
      runReactLoop(
        reason,
        (step) => (sink: StepSink) => {
          sink.next(step.kind === 'reason' ? act : f);
          sink.complete();
          const stop = new Subscription();
          stops.push(stop);
          return stop;
        },
        observer,
      );
      expect(observer.final).toHaveBeenCalledWith(f);
      expect(observer.complete).toHaveBeenCalledOnce();
      expect(stops).toHaveLength(2);
      expect(stops.every((stop) => stop.closed)).toBe(true);
    });
  });

  describe('a chain of steps that each answer synchronously', () => {
    it('starts each step after the one that emitted it returned: the stack does not grow', () => {
      const depths: number[] = [];
      const observer = { final: vi.fn(), error: vi.fn(), complete: vi.fn() };
      const steps = 10_000;
      let n = 0;
      runReactLoop(
        reason,
        () => (sink: StepSink) => {
          n++;
          if (n === 2 || n === steps) depths.push(new Error().stack?.split('\n').length ?? 0);
          sink.next(n < steps ? reason : f);
          sink.complete();
          return new Subscription();
        },
        observer,
      );
      expect(observer.error).not.toHaveBeenCalled();
      expect(observer.final).toHaveBeenCalledWith(f);
      expect(observer.complete).toHaveBeenCalledOnce();
      expect(n).toBe(steps);
      expect(depths[1]).toBe(depths[0]);
    });

    it("runs a step's teardown before the step it emitted starts", () => {
      const order: string[] = [];
      let n = 0;
      const observer = { final: vi.fn(), error: vi.fn(), complete: vi.fn() };
      runReactLoop(
        reason,
        () => (sink: StepSink) => {
          const me = ++n;
          order.push(`start ${me}`);
          sink.next(me < 3 ? reason : f);
          sink.complete();
          return new Subscription(() => order.push(`stop ${me}`));
        },
        observer,
      );
      expect(order).toEqual(['start 1', 'stop 1', 'start 2', 'stop 2', 'start 3', 'stop 3']);
      expect(observer.complete).toHaveBeenCalledOnce();
    });

    it('starts the steps a step emits in order once it returned, and none once unsubscribed', () => {
      const started: string[] = [];
      const sinks: StepSink[] = [];
      let whenEmitted: string[] = [];
      const observer = { final: vi.fn(), error: vi.fn(), complete: vi.fn() };
      const running = runReactLoop(
        reason,
        (step) => (sink: StepSink) => {
          started.push(step.kind);
          if (step.kind === 'act') {
            sink.next(summary);
            sink.next(reason);
            whenEmitted = [...started];
          } else if (step.kind === 'summary') running.unsubscribe();
          sinks.push(sink);
          return new Subscription();
        },
        observer,
      );
      sinks[0]!.next(act);
      expect(whenEmitted).toEqual(['reason', 'act']); // queued until the act step returned
      expect(started).toEqual(['reason', 'act', 'summary']);
      expect(running.closed).toBe(true);
      expect(observer.complete).not.toHaveBeenCalled();
    });
  });
});
