import { getEventListeners } from 'node:events';
import {
  concat,
  EMPTY,
  finalize,
  fromEvent,
  lastValueFrom,
  map,
  Observable,
  of,
  Subject,
  switchMap,
  take,
  throwError,
} from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it, vi } from 'vitest';
import { CallAbortedError, InterruptedError, isAbortError, NoReplyError } from '../errors.js';
import type { HookEvent } from '../hooks/hookEvent.js';
import { assistantMsg, type Msg, userMsg } from '../message/msg.js';
import { textOf } from '../message/readers.js';
import { subscribeAndRecord } from '../testing/subscribeAndRecord.js';
import { EchoAgent } from '../testing/testAgents.js';
import { AgentBase } from './agentBase.js';
import type { CallContext } from './callContext.js';
import type { InterruptContext } from './callOptions.js';

type Impl = (msgs: Msg[], context: CallContext, agent: TestAgent) => Observable<Msg>;

class TestAgent extends AgentBase {
  readonly contexts: CallContext[] = [];
  readonly interrupts: Array<{ context: InterruptContext; msgs: Msg[] }> = [];
  readonly #impl: Impl;

  constructor(impl: Impl) {
    super({ name: 'tester' });
    this.#impl = impl;
  }

  protected doCall(msgs: Msg[], context: CallContext): Observable<Msg> {
    this.contexts.push(context);
    return this.#impl(msgs, context, this);
  }

  protected override handleInterrupt(context: InterruptContext, msgs: Msg[]): Observable<Msg> {
    this.interrupts.push({ context, msgs });
    return super.handleInterrupt(context, msgs);
  }

  checkpoint(): Observable<never> {
    return this.checkInterrupted();
  }

  get signal(): AbortSignal {
    const context = this.contexts.at(-1);
    if (!context) throw new Error('no call yet');
    return context.signal;
  }
}

/** doCall that never replies on its own and errors with the signal's reason when it aborts. */
const untilAborted: Impl = (_msgs, context) =>
  new Observable<Msg>((subscriber) => {
    const onAbort = () => subscriber.error(context.signal.reason);
    context.signal.addEventListener('abort', onAbort, { once: true });
    return () => context.signal.removeEventListener('abort', onAbort);
  });

/** doCall that waits for `gate`, then checks for an interrupt before replying. */
function checkpointAfter(gate: Observable<unknown>): Impl {
  return (_msgs, _context, agent) =>
    gate.pipe(
      take(1),
      switchMap(() => concat(agent.checkpoint(), of(assistantMsg('finished')))),
    );
}

function recordEvents(agent: AgentBase): HookEvent['type'][] {
  const types: HookEvent['type'][] = [];
  agent.addHook({ onEvent: (event) => void types.push(event.type) });
  return types;
}

describe('AgentBase.interrupt', () => {
  it('replies through handleInterrupt when doCall stops on the aborted signal', () => {
    const agent = new TestAgent(untilAborted);
    const events = recordEvents(agent);
    const { seen } = subscribeAndRecord(agent.call(userMsg('work')));

    agent.interrupt();

    expect(seen.complete).toBe(true);
    const [reply] = seen.values;
    expect(reply?.metadata['interrupted']).toBe(true);
    expect(reply?.metadata['generateReason']).toBe('interrupted');
    expect(reply?.role).toBe('assistant');
    expect(reply?.name).toBe('tester');
    expect(textOf(reply!)).toBe('I noticed that you interrupted me. What can I do for you?');
    expect(events).toEqual(['preCall', 'postCall']);
    expect(agent.isRunning).toBe(false);
  });

  it('aborts CallContext.signal with an InterruptedError as reason', () => {
    const agent = new TestAgent(untilAborted);
    subscribeAndRecord(agent.call(userMsg('work')));
    expect(agent.signal.aborted).toBe(false);

    agent.interrupt();

    expect(agent.signal.aborted).toBe(true);
    expect(agent.signal.reason).toBeInstanceOf(InterruptedError);
  });

  it('raises InterruptedError from checkInterrupted() only after interrupt()', async () => {
    const agent = new TestAgent(() => EMPTY);
    await expect(lastValueFrom(agent.checkpoint(), { defaultValue: 'completed' })).resolves.toBe(
      'completed',
    );
    agent.interrupt();
    await expect(lastValueFrom(agent.checkpoint())).rejects.toBeInstanceOf(InterruptedError);
  });

  it('replies through handleInterrupt when doCall reaches a checkpoint after interrupt()', () => {
    const gate = new Subject<void>();
    const agent = new TestAgent(checkpointAfter(gate));
    const { seen } = subscribeAndRecord(agent.call(userMsg('work')));

    agent.interrupt(userMsg('stop now'));
    gate.next();

    expect(seen.values[0]?.metadata['interrupted']).toBe(true);
    expect(textOf(seen.values[0]!)).toBe('I was interrupted. What would you like me to do next?');
  });

  it("passes interrupt()'s message and source 'user' to handleInterrupt, with the call's input", () => {
    const gate = new Subject<void>();
    const agent = new TestAgent(checkpointAfter(gate));
    agent.addHook({
      onEvent(event) {
        if (event.type === 'preCall') event.input = [userMsg('rewritten')];
      },
    });
    subscribeAndRecord(agent.call(userMsg('original')));
    const stop = userMsg('please stop');

    agent.interrupt(stop);
    gate.next();

    expect(agent.interrupts).toHaveLength(1);
    expect(agent.interrupts[0]?.context).toEqual({ message: stop, source: 'user' });
    expect(agent.interrupts[0]?.msgs.map(textOf)).toEqual(['rewritten']);
  });

  it("passes { source: 'user' } without a message when interrupt() got none", () => {
    const agent = new TestAgent(untilAborted);
    subscribeAndRecord(agent.call(userMsg('work')));
    agent.interrupt();
    expect(agent.interrupts[0]?.context).toEqual({ source: 'user' });
  });

  it('runs postCall hooks on the interrupt reply and broadcasts it', () => {
    const listener = new EchoAgent({ name: 'listener' });
    const agent = new TestAgent(untilAborted);
    agent.resetSubscribers('hub', [listener]);
    agent.addHook({
      onEvent(event) {
        if (event.type !== 'postCall') return undefined;
        return { ...event, reply: { ...event.reply, name: 'edited' } };
      },
    });
    const { seen } = subscribeAndRecord(agent.call(userMsg('work')));

    agent.interrupt();

    expect(seen.values[0]?.name).toBe('edited');
    expect(seen.values[0]?.metadata['interrupted']).toBe(true);
    expect(listener.observed.map((msg) => msg.name)).toEqual(['edited']);
  });

  it('keeps usage reported before the interrupt on the interrupt reply', () => {
    const agent = new TestAgent((msgs, context, self) => {
      context.addUsage({ inputTokens: 3, outputTokens: 1, totalTokens: 4 });
      return untilAborted(msgs, context, self);
    });
    const { seen } = subscribeAndRecord(agent.call(userMsg('work')));
    agent.interrupt();
    expect(seen.values[0]?.metadata['usage']).toEqual({
      inputTokens: 3,
      outputTokens: 1,
      totalTokens: 4,
    });
  });

  it('treats a plain AbortError as an interrupt once interrupt() was called', () => {
    const agent = new TestAgent((_msgs, context) =>
      fromEvent(context.signal, 'abort').pipe(
        switchMap(() => throwError(() => new DOMException('aborted', 'AbortError'))),
      ),
    );
    const events = recordEvents(agent);
    const { seen } = subscribeAndRecord(agent.call(userMsg('work')));

    agent.interrupt();

    expect(seen.values[0]?.metadata['generateReason']).toBe('interrupted');
    expect(events).toEqual(['preCall', 'postCall']);
  });

  it('fails with NoReplyError after error hooks when handleInterrupt emits nothing', () => {
    class Silent extends TestAgent {
      protected override handleInterrupt(): Observable<Msg> {
        return EMPTY;
      }
    }
    const agent = new Silent(untilAborted);
    const events = recordEvents(agent);
    const { seen } = subscribeAndRecord(agent.call(userMsg('work')));

    agent.interrupt();

    expect(seen.error).toBeInstanceOf(NoReplyError);
    expect(events).toEqual(['preCall', 'error']);
    expect(agent.isRunning).toBe(false);
  });

  it('fails with the error of a failing handleInterrupt after error hooks', () => {
    const failure = new Error('cannot summarise');
    class Failing extends TestAgent {
      protected override handleInterrupt(): Observable<Msg> {
        return throwError(() => failure);
      }
    }
    const agent = new Failing(untilAborted);
    const events = recordEvents(agent);
    const { seen } = subscribeAndRecord(agent.call(userMsg('work')));

    agent.interrupt();

    expect(seen.error).toBe(failure);
    expect(events).toEqual(['preCall', 'error']);
  });

  it('has no effect on a call when made while idle (the next call resets it)', () => {
    const gate = new Subject<void>();
    const agent = new TestAgent(checkpointAfter(gate));
    agent.interrupt(userMsg('too early'));

    const { seen } = subscribeAndRecord(agent.call(userMsg('work')));
    expect(agent.signal.aborted).toBe(false);
    gate.next();

    expect(textOf(seen.values[0]!)).toBe('finished');
    expect(seen.values[0]?.metadata['interrupted']).toBeUndefined();
  });

  it('reaches doCall when made during an asynchronous preCall hook', async () => {
    let releaseHook!: () => void;
    const hookDone = new Promise<void>((resolve) => {
      releaseHook = resolve;
    });
    const agent = new TestAgent((_msgs, context, self) =>
      context.signal.aborted
        ? concat(self.checkpoint(), of(assistantMsg('x')))
        : of(assistantMsg('not aborted')),
    );
    agent.addHook({ onEvent: (event) => (event.type === 'preCall' ? hookDone : undefined) });

    const reply = lastValueFrom(agent.call(userMsg('work')));
    agent.interrupt();
    releaseHook();

    expect((await reply).metadata['interrupted']).toBe(true);
  });
});

describe('AgentBase cancellation', () => {
  it("aborts the signal before doCall's teardown runs when the caller unsubscribes", () => {
    const scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    const seenInTeardown: boolean[] = [];
    let agent!: TestAgent;

    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const slow = cold<Msg>('-----a|', { a: assistantMsg('late') });
      agent = new TestAgent((_msgs, context) =>
        slow.pipe(finalize(() => seenInTeardown.push(context.signal.aborted))),
      );

      expectObservable(agent.call(userMsg('first')).pipe(map(textOf)), '^--!').toBe('---');
      expectObservable(agent.call(userMsg('second')).pipe(map(textOf)), '----^').toBe(
        '----------(a|)',
        {
          a: 'late',
        },
      );
      expectSubscriptions(slow.subscriptions).toBe(['^--!', '----^-----!']);
    });

    expect(seenInTeardown).toEqual([true, false]);
    expect(agent.contexts[0]?.signal.reason).toMatchObject({ name: 'AbortError' });
    expect(agent.contexts[1]?.signal.aborted).toBe(false);
    expect(agent.isRunning).toBe(false);
  });

  it('runs doCall teardown and frees the agent at once on unsubscribe (fake timers)', () => {
    vi.useFakeTimers();
    try {
      let tornDown = false;
      const agent = new TestAgent(
        () =>
          new Observable<Msg>((subscriber) => {
            const timer = setTimeout(() => subscriber.next(assistantMsg('too late')), 10_000);
            return () => {
              tornDown = true;
              clearTimeout(timer);
            };
          }),
      );
      const { seen, subscription } = subscribeAndRecord(agent.call(userMsg('work')));
      vi.advanceTimersByTime(5_000);

      subscription.unsubscribe();

      expect(tornDown).toBe(true);
      expect(agent.isRunning).toBe(false);
      expect(agent.signal.aborted).toBe(true);
      vi.advanceTimersByTime(10_000);
      expect(seen.values).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('runs no postCall or error hook for a call the caller unsubscribed from', () => {
    const agent = new TestAgent(untilAborted);
    const events = recordEvents(agent);
    const { seen, subscription } = subscribeAndRecord(agent.call(userMsg('work')));

    subscription.unsubscribe();

    expect(events).toEqual(['preCall']);
    expect(seen.error).toBeUndefined();
    expect(agent.isRunning).toBe(false);
  });

  it('keeps a reply doCall makes in reaction to the cancellation away from hooks and subscribers', () => {
    const listener = new EchoAgent({ name: 'listener' });
    const agent = new TestAgent(
      (_msgs, context) =>
        new Observable<Msg>((subscriber) => {
          context.signal.addEventListener('abort', () => {
            subscriber.next(assistantMsg('partial'));
            subscriber.complete();
          });
        }),
    );
    agent.resetSubscribers('hub', [listener]);
    const events = recordEvents(agent);
    const { seen, subscription } = subscribeAndRecord(agent.call(userMsg('work')));

    subscription.unsubscribe();

    expect(events).toEqual(['preCall']);
    expect(listener.observed).toEqual([]);
    expect(seen.values).toEqual([]);
  });

  it('does not turn an unsubscribe after interrupt() into an interrupt reply', () => {
    const gate = new Subject<void>();
    const agent = new TestAgent(checkpointAfter(gate));
    const events = recordEvents(agent);
    const { subscription } = subscribeAndRecord(agent.call(userMsg('work')));
    agent.interrupt();

    subscription.unsubscribe();
    gate.next();

    expect(agent.interrupts).toEqual([]);
    expect(events).toEqual(['preCall']);
  });

  it('does not abort the signal of a call that completed or errored', async () => {
    const done = new TestAgent(() => of(assistantMsg('ok')));
    await lastValueFrom(done.call(userMsg('x')));
    expect(done.signal.aborted).toBe(false);

    const failed = new TestAgent(() => throwError(() => new Error('nope')));
    await lastValueFrom(failed.call(userMsg('x'))).catch(() => undefined);
    expect(failed.signal.aborted).toBe(false);
  });

  it('aborts the signal with the reason of options.signal and fails the call after error hooks', () => {
    const controller = new AbortController();
    const agent = new TestAgent(untilAborted);
    const events = recordEvents(agent);
    const { seen } = subscribeAndRecord(agent.call(userMsg('work'), { signal: controller.signal }));
    const reason = new DOMException('caller gave up', 'AbortError');

    controller.abort(reason);

    expect(agent.signal.aborted).toBe(true);
    expect(agent.signal.reason).toBe(reason);
    expect(seen.error).toBeInstanceOf(CallAbortedError);
    expect(seen.error).toMatchObject({ name: 'AbortError', code: 'ABORTED', cause: reason });
    expect(isAbortError(seen.error)).toBe(true);
    expect(events).toEqual(['preCall', 'error']);
    expect(agent.isRunning).toBe(false);
  });

  it('fails at once with CallAbortedError, running and storing nothing, when options.signal is already aborted', async () => {
    const controller = new AbortController();
    const reason = new DOMException('already', 'AbortError');
    controller.abort(reason);
    const agent = new TestAgent(() => of(assistantMsg('ran')));
    const events = recordEvents(agent);

    const error = await lastValueFrom(
      agent.call(userMsg('x'), { signal: controller.signal }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CallAbortedError);
    expect(error).toMatchObject({ name: 'AbortError', code: 'ABORTED', cause: reason });
    expect((error as Error).message).toBe(
      'The call to "tester" was aborted by its signal (already).',
    );
    expect(agent.contexts).toEqual([]);
    expect(events).toEqual([]);
    expect(agent.isRunning).toBe(false);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('fails with the same error whether the signal aborted before the call or before its reply', async () => {
    const before = new AbortController();
    before.abort();
    const during = new AbortController();
    const agent = new TestAgent((_msgs, context) => {
      during.abort();
      return throwError(() => context.signal.reason);
    });
    const early = await lastValueFrom(agent.call('x', { signal: before.signal })).catch(
      (e: unknown) => e,
    );
    const late = await lastValueFrom(agent.call('x', { signal: during.signal })).catch(
      (e: unknown) => e,
    );
    for (const error of [early, late])
      expect(error).toMatchObject({ name: 'AbortError', code: 'ABORTED' });
    expect((late as Error).constructor).toBe((early as Error).constructor);
  });

  it('exposes the options a call was made with on CallContext', async () => {
    const controller = new AbortController();
    const agent = new TestAgent(() => of(assistantMsg('x')));
    const options = { signal: controller.signal };
    await lastValueFrom(agent.call(userMsg('x'), options));
    expect(agent.contexts[0]?.options).toBe(options);
    expect(agent.contexts[0]?.callId).toEqual(expect.any(String));
  });

  it('gives each call its own callId, the same at every read', async () => {
    const agent = new TestAgent(() => of(assistantMsg('x')));
    await lastValueFrom(agent.call(userMsg('x')));
    await lastValueFrom(agent.call(userMsg('y')));
    const [first, second] = agent.contexts;
    expect(first?.callId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first?.callId).toBe(first?.callId);
    expect(second?.callId).not.toBe(first?.callId);
  });
});

describe('AgentBase options.signal listeners', () => {
  function listeners(signal: AbortSignal): number {
    return getEventListeners(signal, 'abort').length;
  }

  it('leaves no listener after a completed call', async () => {
    const controller = new AbortController();
    const gate = new Subject<void>();
    const agent = new TestAgent(checkpointAfter(gate));
    const reply = lastValueFrom(agent.call(userMsg('x'), { signal: controller.signal }));
    expect(listeners(controller.signal)).toBe(1);
    gate.next();
    await reply;
    expect(listeners(controller.signal)).toBe(0);
  });

  it('leaves no listener after an errored call', async () => {
    const controller = new AbortController();
    const agent = new TestAgent(() => throwError(() => new Error('nope')));
    await lastValueFrom(agent.call(userMsg('x'), { signal: controller.signal })).catch(
      () => undefined,
    );
    expect(listeners(controller.signal)).toBe(0);
  });

  it('leaves no listener after an unsubscribed call', () => {
    const controller = new AbortController();
    const agent = new TestAgent(untilAborted);
    const { subscription } = subscribeAndRecord(
      agent.call(userMsg('x'), { signal: controller.signal }),
    );
    expect(listeners(controller.signal)).toBe(1);
    subscription.unsubscribe();
    expect(listeners(controller.signal)).toBe(0);
  });

  it('leaves no listener after an interrupted call, nor after a busy or invalid one', () => {
    const controller = new AbortController();
    const agent = new TestAgent(untilAborted);
    subscribeAndRecord(agent.call(userMsg('x'), { signal: controller.signal }));
    subscribeAndRecord(agent.call(userMsg('y'), { signal: controller.signal }));
    expect(listeners(controller.signal)).toBe(1);
    agent.interrupt();
    subscribeAndRecord(agent.call(42 as unknown as Msg, { signal: controller.signal }));
    expect(listeners(controller.signal)).toBe(0);
  });

  it('leaves no listener after many calls reusing one signal', async () => {
    const controller = new AbortController();
    const agent = new TestAgent(() => of(assistantMsg('x')));
    for (let i = 0; i < 20; i++)
      await lastValueFrom(agent.call(userMsg('x'), { signal: controller.signal }));
    expect(listeners(controller.signal)).toBe(0);
  });
});
