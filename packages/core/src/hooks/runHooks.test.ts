import { EMPTY, firstValueFrom, NEVER, Observable, of, Subject, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { AgentBase } from '../agent/agentBase.js';
import { assistantMsg, type Msg, userMsg } from '../message/msg.js';
import { subscribeAndRecord } from '../testing/subscribeAndRecord.js';
import type { Hook, HookResult } from './hook.js';
import type { HookEvent, PostCallEvent, PreCallEvent } from './hookEvent.js';
import { runHooks } from './runHooks.js';

class Idle extends AgentBase {
  protected doCall(): Observable<Msg> {
    return EMPTY;
  }
}

const agent = new Idle({ name: 'idle' });

function preCall(text = 'hi'): PreCallEvent {
  return { type: 'preCall', agent, input: [userMsg(text)], systemPrompt: '' };
}

function hook(onEvent: (event: HookEvent) => HookResult, name?: string): Hook {
  return name === undefined ? { onEvent } : { name, onEvent };
}

/** A hook that appends `tag` to the system prompt in place. */
function tagger(tag: string): Hook {
  return hook((event) => {
    if (event.type === 'preCall') event.systemPrompt += tag;
  });
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('runHooks', () => {
  it('emits the event unchanged and completes when there are no hooks', () => {
    const event = preCall();
    const { seen } = subscribeAndRecord(runHooks([], event));
    expect(seen.values).toEqual([event]);
    expect(seen.values[0]).toBe(event);
    expect(seen.complete).toBe(true);
  });

  it('is cold: no hook runs before subscription', () => {
    const calls: string[] = [];
    const source = runHooks([hook(() => void calls.push('ran'))], preCall());
    expect(calls).toEqual([]);
    subscribeAndRecord(source);
    subscribeAndRecord(source);
    expect(calls).toEqual(['ran', 'ran']);
  });

  it('runs synchronous hooks in order within subscribe, each seeing the previous change', () => {
    const event = preCall();
    const { seen } = subscribeAndRecord(runHooks([tagger('a'), tagger('b'), tagger('c')], event));
    expect(seen.complete).toBe(true);
    expect(seen.values[0]?.systemPrompt).toBe('abc');
  });

  it('passes a returned replacement event on to the next hook and emits the last one', () => {
    const original = preCall('original');
    const replacement = preCall('replaced');
    const seenBySecond: PreCallEvent[] = [];
    const hooks = [
      hook(() => replacement),
      hook((event) => {
        seenBySecond.push(event as PreCallEvent);
      }),
    ];

    const { seen } = subscribeAndRecord(runHooks(hooks, original));

    expect(seenBySecond[0]).toBe(replacement);
    expect(seen.values[0]).toBe(replacement);
  });

  it('awaits a Promise of a replacement before the next hook runs', async () => {
    const gate = deferred<PreCallEvent>();
    const order: string[] = [];
    const hooks = [
      hook(() => gate.promise),
      hook((event) => {
        order.push(`second saw ${(event as PreCallEvent).systemPrompt}`);
      }),
    ];

    const result = firstValueFrom(runHooks(hooks, preCall()));
    await Promise.resolve();
    expect(order).toEqual([]);
    gate.resolve({ ...preCall(), systemPrompt: 'from promise' });

    expect((await result).systemPrompt).toBe('from promise');
    expect(order).toEqual(['second saw from promise']);
  });

  it('keeps the event when a Promise resolves to nothing', async () => {
    const event = preCall();
    const result = await firstValueFrom(
      runHooks([hook(async () => undefined), tagger('!')], event),
    );
    expect(result).toBe(event);
    expect(result.systemPrompt).toBe('!');
  });

  it("takes an Observable's last value as the result", async () => {
    const first = preCall('first');
    const last = preCall('last');
    const result = await firstValueFrom(runHooks([hook(() => of(first, last))], preCall()));
    expect(result).toBe(last);
  });

  it('keeps the event when an Observable completes without a value or emits undefined', () => {
    const event = preCall();
    const hooks = [hook(() => EMPTY), hook(() => of(undefined)), tagger('x')];
    const { seen } = subscribeAndRecord(runHooks(hooks, event));
    expect(seen.values).toEqual([event]);
    expect(event.systemPrompt).toBe('x');
  });

  it('stays synchronous when hooks return synchronous Observables', () => {
    const replacement = preCall('sync');
    const { seen } = subscribeAndRecord(
      runHooks([hook(() => of(replacement)), tagger('!')], preCall()),
    );
    expect(seen.complete).toBe(true);
    expect(seen.values[0]).toBe(replacement);
    expect(replacement.systemPrompt).toBe('!');
  });

  it('errors with the very error a hook throws, and runs no later hook', () => {
    const boom = new Error('boom');
    const later: string[] = [];
    const hooks = [
      hook(() => {
        throw boom;
      }),
      hook(() => void later.push('ran')),
    ];
    const { seen } = subscribeAndRecord(runHooks(hooks, preCall()));
    expect(seen.error).toBe(boom);
    expect(seen.values).toEqual([]);
    expect(later).toEqual([]);
  });

  it('errors with the very reason a hook rejects with', async () => {
    const reason = new Error('rejected');
    await expect(
      firstValueFrom(runHooks([hook(() => Promise.reject(reason))], preCall())),
    ).rejects.toBe(reason);
  });

  it('errors with the very error a hook Observable errors with', () => {
    const failure = new Error('observable failed');
    const { seen } = subscribeAndRecord(
      runHooks([hook(() => throwError(() => failure))], preCall()),
    );
    expect(seen.error).toBe(failure);
  });

  it('rejects a replacement of another event type with a TypeError naming the hook', () => {
    const post: PostCallEvent = { type: 'postCall', agent, reply: assistantMsg('x') };
    const { seen } = subscribeAndRecord(runHooks([hook(() => post, 'wrong-type')], preCall()));
    expect(seen.error).toBeInstanceOf(TypeError);
    expect((seen.error as Error).message).toContain(
      'Hook "wrong-type" returned an event of type "postCall"',
    );
    expect((seen.error as Error).message).toContain('preCall');
  });

  it.each([
    ['a string', 'oops', /returned "oops"/],
    ['a number', 42, /returned 42/],
    ['an object without a type', { input: [] }, /returned an object without a type/],
  ])('rejects %s as a result with a TypeError', (_label, value, message) => {
    const { seen } = subscribeAndRecord(
      runHooks([hook(() => value as unknown as HookResult)], preCall()),
    );
    expect(seen.error).toBeInstanceOf(TypeError);
    expect((seen.error as Error).message).toMatch(message);
  });

  it('rejects a wrong-type value delivered through a Promise with a TypeError', async () => {
    const post: PostCallEvent = { type: 'postCall', agent, reply: assistantMsg('x') };
    await expect(
      firstValueFrom(runHooks([hook(async () => post, 'async-wrong')], preCall())),
    ).rejects.toThrow(/Hook "async-wrong" returned an event of type "postCall"/);
  });

  it('stops at unsubscribe while a Promise is pending: no later hook runs', async () => {
    const gate = deferred<undefined>();
    const later: string[] = [];
    const { seen, subscription } = subscribeAndRecord(
      runHooks([hook(() => gate.promise), hook(() => void later.push('ran'))], preCall()),
    );

    subscription.unsubscribe();
    gate.resolve(undefined);
    await gate.promise;
    await Promise.resolve();

    expect(later).toEqual([]);
    expect(seen.values).toEqual([]);
    expect(seen.complete).toBe(false);
  });

  it('drops a rejection that arrives after unsubscribe', async () => {
    const gate = deferred<undefined>();
    const { seen, subscription } = subscribeAndRecord(
      runHooks([hook(() => gate.promise)], preCall()),
    );

    subscription.unsubscribe();
    gate.reject(new Error('late'));
    await gate.promise.catch(() => undefined);

    expect(seen.error).toBeUndefined();
  });

  it('unsubscribes a never-ending hook Observable, running its teardown', () => {
    let tornDown = false;
    const endless = new Observable<undefined>(() => () => {
      tornDown = true;
    });
    const { seen, subscription } = subscribeAndRecord(runHooks([hook(() => endless)], preCall()));

    expect(seen.values).toEqual([]);
    subscription.unsubscribe();
    expect(tornDown).toBe(true);
  });

  it('tears down the pending hook, not an earlier finished one, after synchronous Observable hooks', () => {
    let tornDown = false;
    const endless = new Observable<undefined>(() => () => {
      tornDown = true;
    });
    const hooks = [hook(() => of(undefined)), hook(() => of(undefined)), hook(() => endless)];
    const { subscription } = subscribeAndRecord(runHooks(hooks, preCall()));

    subscription.unsubscribe();

    expect(tornDown).toBe(true);
  });

  it('waits for an asynchronous Observable and resumes with the next hook', () => {
    const subject = new Subject<HookEvent | undefined>();
    const { seen } = subscribeAndRecord(runHooks([hook(() => subject), tagger('!')], preCall()));
    expect(seen.complete).toBe(false);

    const replacement = preCall('late');
    subject.next(replacement);
    expect(seen.complete).toBe(false);
    subject.complete();

    expect(seen.values).toEqual([replacement]);
    expect(replacement.systemPrompt).toBe('!');
  });

  it('calls onEvent with the hook as this', () => {
    const seen: unknown[] = [];
    const withThis: Hook = {
      name: 'self',
      onEvent() {
        seen.push(this);
      },
    };
    subscribeAndRecord(runHooks([withThis], preCall()));
    expect(seen).toEqual([withThis]);
  });

  it('never completes while a hook returns NEVER', () => {
    const { seen, subscription } = subscribeAndRecord(runHooks([hook(() => NEVER)], preCall()));
    expect(seen.complete).toBe(false);
    expect(seen.values).toEqual([]);
    subscription.unsubscribe();
  });
});
