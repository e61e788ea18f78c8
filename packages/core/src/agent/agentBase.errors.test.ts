import { lastValueFrom, Observable, of, Subject, throwError } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { NoReplyError } from '../errors.js';
import type { Hook, HookResult } from '../hooks/hook.js';
import type { ErrorEvent, HookEvent } from '../hooks/hookEvent.js';
import { assistantMsg, type Msg, userMsg } from '../message/msg.js';
import { AgentBase } from './agentBase.js';
import type { CallContext } from './callContext.js';

type Impl = (msgs: Msg[], context: CallContext) => Observable<Msg>;

class TestAgent extends AgentBase {
  readonly #impl: Impl;

  constructor(impl: Impl) {
    super({ name: 'tester' });
    this.#impl = impl;
  }

  protected doCall(msgs: Msg[], context: CallContext): Observable<Msg> {
    return this.#impl(msgs, context);
  }
}

const failure = new Error('doCall failed');
const failing = () => throwError(() => failure);

/** An error hook: records `label`, then returns what `result` gives. */
function errorHook(
  log: string[],
  label: string,
  result: () => HookResult = () => undefined,
  priority?: number,
): Hook {
  const onEvent = (event: HookEvent): HookResult => {
    if (event.type !== 'error') return undefined;
    log.push(label);
    return result();
  };
  return priority === undefined ? { name: label, onEvent } : { name: label, priority, onEvent };
}

function terminalEvents(agent: AgentBase): Array<'postCall' | 'error'> {
  const seen: Array<'postCall' | 'error'> = [];
  agent.addHook({
    onEvent(event) {
      if (event.type === 'postCall' || event.type === 'error') seen.push(event.type);
    },
  });
  return seen;
}

afterEach(() => {
  AgentBase.clearSystemHooks();
});

describe('AgentBase error handling', () => {
  it('fails the call with what a doCall throws, and frees the agent', async () => {
    const agent = new TestAgent(() => {
      throw failure;
    });
    const seen = terminalEvents(agent);
    await expect(lastValueFrom(agent.call(userMsg('x')))).rejects.toBe(failure);
    expect(seen).toEqual(['error']);
    expect(agent.isRunning).toBe(false);
  });

  it('replies with the last Msg doCall emits, and fails with NoReplyError when it emits none', async () => {
    const agent = new TestAgent(() => of(assistantMsg('draft'), assistantMsg('final')));
    const reply = await lastValueFrom(agent.call(userMsg('x')));
    expect(reply.content).toEqual([{ type: 'text', text: 'final' }]);
    const silent = new TestAgent(() => of());
    await expect(lastValueFrom(silent.call(userMsg('x')))).rejects.toBeInstanceOf(NoReplyError);
    expect(silent.isRunning).toBe(false);
  });

  it('passes the error to error hooks in order, then re-throws the very same error', async () => {
    const log: string[] = [];
    const agent = new TestAgent(failing);
    const events: ErrorEvent[] = [];
    agent.addHook(errorHook(log, 'late', undefined, 200));
    agent.addHook(errorHook(log, 'early', undefined, 1));
    AgentBase.addSystemHook(errorHook(log, 'system'));
    agent.addHook({ onEvent: (event) => void (event.type === 'error' && events.push(event)) });

    await expect(lastValueFrom(agent.call(userMsg('x')))).rejects.toBe(failure);

    expect(log).toEqual(['early', 'system', 'late']);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'error', agent, error: failure });
  });

  it.each<[string, () => HookResult]>([
    [
      'throws',
      () => {
        throw new Error('error hook threw');
      },
    ],
    ['rejects', () => Promise.reject(new Error('error hook rejected'))],
    ['errors', () => throwError(() => new Error('error hook errored'))],
    [
      'returns an event of another type',
      () =>
        ({ type: 'postCall', agent: undefined, reply: assistantMsg('x') }) as unknown as HookResult,
    ],
  ])(
    'keeps the original error, and runs later error hooks, when an error hook %s',
    async (_label, result) => {
      const log: string[] = [];
      const agent = new TestAgent(failing);
      agent.addHook(errorHook(log, 'first', result));
      agent.addHook(errorHook(log, 'second'));

      await expect(lastValueFrom(agent.call(userMsg('x')))).rejects.toBe(failure);

      expect(log).toEqual(['first', 'second']);
      expect(agent.isRunning).toBe(false);
    },
  );

  it('waits for asynchronous error hooks before re-throwing', async () => {
    const log: string[] = [];
    const gate = new Subject<void>();
    const agent = new TestAgent(failing);
    agent.addHook(errorHook(log, 'slow', () => gate));
    agent.addHook(errorHook(log, 'after'));
    let error: unknown;
    agent.call(userMsg('x')).subscribe({
      error: (e: unknown) => {
        error = e;
      },
    });

    expect(log).toEqual(['slow']);
    expect(error).toBeUndefined();
    expect(agent.isRunning).toBe(true);

    gate.complete();

    expect(log).toEqual(['slow', 'after']);
    expect(error).toBe(failure);
    expect(agent.isRunning).toBe(false);
  });

  it('frees the agent when the caller unsubscribes while error hooks run', () => {
    const agent = new TestAgent(failing);
    agent.addHook(errorHook([], 'slow', () => new Subject<void>()));
    const subscription = agent.call(userMsg('x')).subscribe({ error: () => undefined });
    expect(agent.isRunning).toBe(true);

    subscription.unsubscribe();

    expect(agent.isRunning).toBe(false);
  });

  it('does not run error hooks for a busy, invalid or unsupported call', async () => {
    const log: string[] = [];
    const agent = new TestAgent(() => new Subject<Msg>());
    agent.addHook(errorHook(log, 'error'));
    const running = agent.call(userMsg('x')).subscribe();

    await lastValueFrom(agent.call(userMsg('y'))).catch(() => undefined);
    running.unsubscribe();
    await lastValueFrom(agent.call(42 as unknown as Msg)).catch(() => undefined);
    await lastValueFrom(agent.call(userMsg('z'), { structuredOutput: {} })).catch(() => undefined);

    expect(log).toEqual([]);
  });
});

describe('AgentBase terminal events', () => {
  it('ends a successful call with exactly one postCall event', async () => {
    const agent = new TestAgent(() => of(assistantMsg('a'), assistantMsg('b')));
    const seen = terminalEvents(agent);
    await lastValueFrom(agent.call(userMsg('x')));
    expect(seen).toEqual(['postCall']);
  });

  it('ends an interrupted call with exactly one postCall event', async () => {
    const agent = new TestAgent(
      (_msgs, context) =>
        new Observable<Msg>((subscriber) => {
          context.signal.addEventListener('abort', () => subscriber.error(context.signal.reason));
        }),
    );
    const seen = terminalEvents(agent);
    const reply = lastValueFrom(agent.call(userMsg('x')));

    agent.interrupt();

    expect((await reply).metadata['interrupted']).toBe(true);
    expect(seen).toEqual(['postCall']);
  });

  it.each<[string, Impl]>([
    ['doCall errors', failing],
    ['doCall replies nothing', () => of<Msg>()],
  ])('ends a call where %s with exactly one error event', async (_label, impl) => {
    const agent = new TestAgent(impl);
    const seen = terminalEvents(agent);
    await lastValueFrom(agent.call(userMsg('x'))).catch(() => undefined);
    expect(seen).toEqual(['error']);
  });

  it('reports NoReplyError to error hooks when doCall replies nothing', async () => {
    const agent = new TestAgent(() => of());
    const errors: unknown[] = [];
    agent.addHook({
      onEvent: (event) => void (event.type === 'error' && errors.push(event.error)),
    });
    await lastValueFrom(agent.call(userMsg('x'))).catch(() => undefined);
    expect(errors).toEqual([expect.any(NoReplyError)]);
  });
});
