import { EMPTY, NEVER, Observable, of, Subject, throwError } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import type { PostCallEvent } from '../hooks/hookEvent.js';
import { dispatchHooks } from '../hooks/runHooks.js';
import { assistantMsg } from '../message/msg.js';
import { textOf } from '../message/readers.js';
import { type HookRoom, Phases } from './phases.js';

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

  describe('afterHooks', () => {
    const event = (text: string) =>
      ({ type: 'postCall', agent: {}, reply: assistantMsg(text) }) as unknown as PostCallEvent;

    it('runs then directly with the event, skipping notify, when nobody listens', () => {
      const room = { listens: vi.fn(() => false), notify: vi.fn() };
      const seenEvents: PostCallEvent[] = [];
      const original = event('draft');
      const { seen } = runCall((p) =>
        p.afterHooks(room, original, (after) => {
          seenEvents.push(after);
          p.finish(textOf(after.reply));
        }),
      );
      expect(room.listens).toHaveBeenCalledWith('postCall');
      expect(room.notify).not.toHaveBeenCalled();
      expect(seenEvents).toEqual([original]);
      expect(seen).toEqual(['next draft', 'complete']);
    });

    it('runs then with the event as the hooks left it when someone listens', () => {
      const notified: string[] = [];
      const room: HookRoom = {
        listens: () => true,
        notify: (sent) => {
          notified.push(sent.type);
          return of({ ...sent, reply: assistantMsg('edited') });
        },
      };
      const { seen } = runCall((p) =>
        p.afterHooks(room, event('draft'), (after) => p.finish(textOf(after.reply))),
      );
      expect(notified).toEqual(['postCall']);
      expect(seen).toEqual(['next edited', 'complete']);
    });

    it('uses a room that can dispatch instead of notify, with no Observable for sync hooks', () => {
      const notify = vi.fn();
      const room: HookRoom = {
        listens: () => true,
        notify,
        dispatch: (sent, done) => done({ ...sent, reply: assistantMsg('dispatched') }),
      };
      const { seen } = runCall((p) =>
        p.afterHooks(room, event('draft'), (after) => p.finish(textOf(after.reply))),
      );
      expect(notify).not.toHaveBeenCalled();
      expect(seen).toEqual(['next dispatched', 'complete']);
      const failing: HookRoom = {
        listens: () => true,
        notify,
        dispatch: (_sent, _done, fail) => fail(new Error('sync hook broke')),
      };
      expect(runCall((p) => p.afterHooks(failing, event('x'), () => {})).seen).toEqual([
        'error sync hook broke',
      ]);
    });

    it('hands a hook error, or a throw in then, to onError (default: fail the call)', () => {
      const failing = {
        listens: () => true,
        notify: () => throwError(() => new Error('hook broke')),
      };
      expect(runCall((p) => p.afterHooks(failing, event('x'), () => {})).seen).toEqual([
        'error hook broke',
      ]);
      const onError = vi.fn();
      runCall((p) =>
        p.afterHooks(
          { listens: () => false, notify: () => EMPTY },
          event('x'),
          () => {
            throw new Error('then broke');
          },
          onError,
        ),
      );
      expect(onError).toHaveBeenCalledWith(new Error('then broke'));
    });

    it('hands a throw in then to onError through a room that dispatches (as call contexts do)', () => {
      const room: HookRoom = {
        listens: () => true,
        notify: () => EMPTY,
        dispatch: (sent, done, fail, live) =>
          dispatchHooks([{ onEvent: () => undefined }], sent, done, fail, live),
      };
      const onError = vi.fn();
      runCall((p) =>
        p.afterHooks(
          room,
          event('x'),
          () => {
            throw new Error('then broke');
          },
          onError,
        ),
      );
      expect(onError).toHaveBeenCalledOnce();
      expect(onError).toHaveBeenCalledWith(new Error('then broke'));
    });

    it('unsubscribes hooks in flight when the call is unsubscribed', () => {
      const teardown = vi.fn();
      const room = { listens: () => true, notify: () => new Observable<never>(() => teardown) };
      const { subscription } = runCall((p) => p.afterHooks(room, event('x'), () => {}));
      subscription.unsubscribe();
      expect(teardown).toHaveBeenCalledOnce();
    });
  });

  describe('forward', () => {
    it('passes on every value, then the completion, of the last phase', () => {
      const { seen, phases } = runCall((p) => p.forward(of('a', 'b')));
      expect(seen).toEqual(['next a', 'next b', 'complete']);
      expect(phases.settled).toBe(true);
    });

    it('passes on its error', () => {
      const { seen, phases } = runCall((p) => p.forward(throwError(() => new Error('late'))));
      expect(seen).toEqual(['error late']);
      expect(phases.settled).toBe(true);
    });

    it('unsubscribes the forwarded source when the call is unsubscribed', () => {
      const source = new Subject<string>();
      const { seen, subscription, phases } = runCall((p) => p.forward(source));
      source.next('a');
      subscription.unsubscribe();
      expect(source.observed).toBe(false);
      expect(seen).toEqual(['next a']);
      expect(phases.settled).toBe(false);
    });
  });
});
