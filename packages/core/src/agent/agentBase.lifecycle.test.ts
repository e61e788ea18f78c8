import {
  concat,
  defer,
  EMPTY,
  firstValueFrom,
  lastValueFrom,
  type Observable,
  of,
  Subject,
  tap,
} from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentBusyError,
  InvalidArgumentError,
  NoReplyError,
  UnsupportedStructuredOutputError,
} from '../errors.js';
import { assistantMsg, type Msg, userMsg, withMetadata } from '../message/msg.js';
import { textOf } from '../message/readers.js';
import { subscribeAndRecord } from '../testing/subscribeAndRecord.js';
import { AgentBase, type AgentBaseOptions } from './agentBase.js';
import type { CallContext } from './callContext.js';

type Impl = (msgs: Msg[], context: CallContext) => Observable<Msg>;

/** Replies with the input texts joined, unless given another doCall. */
class TestAgent extends AgentBase {
  readonly calls: Array<{ msgs: Msg[]; systemPrompt: string }> = [];
  readonly #impl: Impl;

  constructor(impl?: Impl, options: Partial<AgentBaseOptions> = {}) {
    super({ name: 'tester', ...options });
    this.#impl =
      impl ?? ((msgs) => of(assistantMsg(msgs.map(textOf).join(' '), { name: this.name })));
  }

  protected doCall(msgs: Msg[], context: CallContext): Observable<Msg> {
    this.calls.push({ msgs, systemPrompt: context.systemPrompt });
    return this.#impl(msgs, context);
  }

  checkpoint(): Observable<never> {
    return this.checkInterrupted();
  }
}

/** Records what it observes; `log` is shared to check ordering across agents. */
class Listener extends AgentBase {
  constructor(
    name: string,
    readonly log: string[],
  ) {
    super({ name });
  }

  protected doCall(_msgs: Msg[]): Observable<Msg> {
    return EMPTY;
  }

  protected override doObserve(msg: Msg): Observable<void> {
    return defer(() => {
      this.log.push(`${this.name} observed ${textOf(msg)}`);
      return EMPTY;
    });
  }
}

class WithPrompt extends TestAgent {
  protected override defaultSystemPrompt(): string {
    return 'You are terse.';
  }
}

/** An agent whose first call waits for `release`; later calls reply at once. */
function gated() {
  const release = new Subject<Msg>();
  let first = true;
  const agent = new TestAgent(() => {
    if (!first) return of(assistantMsg('later'));
    first = false;
    return release;
  });
  return { agent, release };
}

afterEach(() => {
  AgentBase.clearSystemHooks();
});

describe('AgentBase construction', () => {
  it('fills id and description when not given, and keeps given ones', () => {
    const plain = new TestAgent();
    expect(plain.name).toBe('tester');
    expect(plain.description).toBe('');
    expect(plain.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new TestAgent().id).not.toBe(plain.id);

    const given = new TestAgent(undefined, { id: 'agent-1', description: 'tests things' });
    expect(given.id).toBe('agent-1');
    expect(given.description).toBe('tests things');
  });

  it('rejects a missing or blank name with an InvalidArgumentError', () => {
    expect(() => new TestAgent(undefined, { name: '  ' })).toThrow(InvalidArgumentError);
    expect(() => new TestAgent(undefined, { name: undefined as unknown as string })).toThrow(
      /options.name must be a non-empty string/,
    );
  });

  it.each(['call', 'stream', 'observe', 'reply'] as const)(
    'throws a TypeError naming the subclass when it overrides %s()',
    (method) => {
      class Rogue extends TestAgent {}
      Object.defineProperty(Rogue.prototype, method, { value: () => EMPTY });
      expect(() => new Rogue()).toThrow(TypeError);
      expect(() => new Rogue()).toThrow(new RegExp(`Rogue overrides AgentBase\\.${method}\\(\\)`));
    },
  );

  it('throws when a grand-child subclass overrides call()', () => {
    class Child extends TestAgent {}
    class GrandChild extends Child {
      override call(): Observable<Msg> {
        return EMPTY;
      }
    }
    expect(() => new Child()).not.toThrow();
    expect(() => new GrandChild()).toThrow(/GrandChild overrides AgentBase\.call\(\)/);
  });

  it('throws for a grand-child of a class that overrides stream(), naming both', () => {
    class Child extends TestAgent {
      // @ts-expect-error stream() is final; this is the misuse under test.
      override stream(): Observable<Msg> {
        return EMPTY;
      }
    }
    class GrandChild extends Child {}
    expect(() => new GrandChild()).toThrow(
      /GrandChild \(through Child\) overrides AgentBase\.stream\(\)/,
    );
  });

  it('registers the hooks given in options', async () => {
    const agent = new TestAgent(undefined, {
      hooks: [
        {
          onEvent(event) {
            if (event.type === 'preCall') event.input = [userMsg('from option hook')];
          },
        },
      ],
    });
    expect(textOf(await lastValueFrom(agent.call(userMsg('x'))))).toBe('from option hook');
  });
});

describe('AgentBase.call', () => {
  it('is cold: nothing runs before subscription, and each subscription is one call', async () => {
    const preCalls: string[] = [];
    const agent = new TestAgent();
    agent.addHook({ onEvent: (event) => void preCalls.push(event.type) });

    const call = agent.call(userMsg('hello'));
    expect(agent.calls).toEqual([]);
    expect(preCalls).toEqual([]);
    expect(agent.isRunning).toBe(false);

    expect(textOf(await lastValueFrom(call))).toBe('hello');
    expect(textOf(await lastValueFrom(call))).toBe('hello');
    expect(agent.calls).toHaveLength(2);
  });

  it('emits exactly one Msg and completes', () => {
    const { seen } = subscribeAndRecord(new TestAgent().call([userMsg('a'), userMsg('b')]));
    expect(seen.values.map(textOf)).toEqual(['a b']);
    expect(seen.complete).toBe(true);
  });

  it('passes an empty list to doCall when called without input', async () => {
    const agent = new TestAgent(() => of(assistantMsg('ok')));
    await lastValueFrom(agent.call());
    expect(agent.calls[0]?.msgs).toEqual([]);
  });

  it('errors with AgentBusyError for a concurrent call, which changes nothing', async () => {
    const { agent, release } = gated();
    const hookEvents: string[] = [];
    agent.addHook({ onEvent: (event) => void hookEvents.push(event.type) });
    const first = subscribeAndRecord(agent.call(userMsg('first')));
    agent.interrupt();
    expect(hookEvents).toEqual(['preCall']);

    const second = subscribeAndRecord(agent.call(userMsg('second')));

    expect(second.seen.error).toBeInstanceOf(AgentBusyError);
    expect((second.seen.error as Error).message).toMatch(/^Agent is still running/);
    expect((second.seen.error as AgentBusyError).agentName).toBe('tester');
    expect(hookEvents).toEqual(['preCall']);
    expect(agent.calls).toHaveLength(1);
    expect(agent.isRunning).toBe(true);

    // The busy call left the first call's interrupt flag alone.
    await expect(lastValueFrom(agent.checkpoint())).rejects.toThrow(/interrupted/);

    release.next(assistantMsg('first reply'));
    release.complete();
    expect(first.seen.values.map(textOf)).toEqual(['first reply']);
    expect(first.seen.complete).toBe(true);
    expect(agent.isRunning).toBe(false);
  });

  it('releases the running guard after the call completes', async () => {
    const { agent, release } = gated();
    const first = lastValueFrom(agent.call(userMsg('a')));
    expect(agent.isRunning).toBe(true);
    release.next(assistantMsg('done'));
    release.complete();
    await first;

    expect(agent.isRunning).toBe(false);
    const again = subscribeAndRecord(agent.call(userMsg('b')));
    expect(again.seen.values.map(textOf)).toEqual(['later']);
  });

  it('releases the running guard after the call errors', async () => {
    const { agent, release } = gated();
    const first = lastValueFrom(agent.call(userMsg('a')));
    release.error(new Error('doCall failed'));
    await expect(first).rejects.toThrow('doCall failed');

    expect(agent.isRunning).toBe(false);
    expect(subscribeAndRecord(agent.call(userMsg('b'))).seen.values.map(textOf)).toEqual(['later']);
  });

  it('releases the running guard when the caller unsubscribes', () => {
    const { agent } = gated();
    const first = subscribeAndRecord(agent.call(userMsg('a')));
    expect(agent.isRunning).toBe(true);

    first.subscription.unsubscribe();

    expect(agent.isRunning).toBe(false);
    expect(subscribeAndRecord(agent.call(userMsg('b'))).seen.values.map(textOf)).toEqual(['later']);
  });

  it("accepts a call() made from the subscriber's next handler", () => {
    const agent = new TestAgent();
    const replies: string[] = [];
    let nested: unknown = 'not called';

    agent.call(userMsg('outer')).subscribe((reply) => {
      replies.push(textOf(reply));
      agent.call(userMsg('inner')).subscribe({
        next: (inner) => replies.push(textOf(inner)),
        error: (error: unknown) => {
          nested = error;
        },
        complete: () => {
          nested = undefined;
        },
      });
    });

    expect(nested).toBeUndefined();
    expect(replies).toEqual(['outer', 'inner']);
    expect(agent.isRunning).toBe(false);
  });

  it('resets the interrupt flag at call start, so an interrupt while idle does not cut the next call', async () => {
    const agent: TestAgent = new TestAgent(() =>
      concat(agent.checkpoint(), of(assistantMsg('done'))),
    );
    agent.interrupt(userMsg('stop'));

    const reply = await lastValueFrom(agent.call(userMsg('go')));

    expect(textOf(reply)).toBe('done');
    expect(reply.metadata['interrupted']).toBeUndefined();
    expect(reply.metadata['generateReason']).toBe('stop');
  });

  it('lets preCall hooks replace the input and the system prompt; doCall sees both', async () => {
    const agent = new WithPrompt();
    const seenPrompts: string[] = [];
    agent.addHook({
      priority: 1,
      onEvent(event) {
        if (event.type !== 'preCall') return;
        seenPrompts.push(event.systemPrompt);
        event.input = [...event.input, userMsg('added')];
        event.systemPrompt = `${event.systemPrompt} Be kind.`;
      },
    });
    agent.addHook({
      priority: 2,
      onEvent(event) {
        if (event.type !== 'preCall') return;
        return { ...event, input: event.input.map((msg) => userMsg(textOf(msg).toUpperCase())) };
      },
    });

    const input = [userMsg('hello')];
    const reply = await lastValueFrom(agent.call(input));

    expect(seenPrompts).toEqual(['You are terse.']);
    expect(agent.calls[0]?.systemPrompt).toBe('You are terse. Be kind.');
    expect(agent.calls[0]?.msgs.map(textOf)).toEqual(['HELLO', 'ADDED']);
    expect(textOf(reply)).toBe('HELLO ADDED');
    expect(input.map(textOf)).toEqual(['hello']);
  });

  it('starts each call from defaultSystemPrompt(), not from the previous call', async () => {
    const agent = new WithPrompt();
    const dispose = agent.addHook({
      onEvent(event) {
        if (event.type === 'preCall') event.systemPrompt = 'changed';
      },
    });
    await lastValueFrom(agent.call(userMsg('a')));
    dispose();
    await lastValueFrom(agent.call(userMsg('b')));

    expect(agent.calls.map((call) => call.systemPrompt)).toEqual(['changed', 'You are terse.']);
  });

  it('errors with NoReplyError when doCall completes without a reply', async () => {
    const agent = new TestAgent(() => EMPTY);
    const error = await lastValueFrom(agent.call(userMsg('x'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoReplyError);
    expect((error as NoReplyError).agentName).toBe('tester');
    expect(agent.isRunning).toBe(false);
  });

  it('fails the call with what doCall throws, runs the error hooks and frees the agent', async () => {
    const thrown = new Error('doCall could not start');
    const agent = new TestAgent(() => {
      throw thrown;
    });
    const seen: unknown[] = [];
    agent.addHook({
      onEvent(event) {
        if (event.type === 'error') seen.push(event.error);
      },
    });
    const error = await lastValueFrom(agent.call(userMsg('x'))).catch((e: unknown) => e);
    expect(error).toBe(thrown);
    expect(seen).toEqual([thrown]);
    expect(agent.isRunning).toBe(false);
  });

  it('fails the call when the last reply is the one a throwing postCall hook got', async () => {
    const agent = new TestAgent(() => of(assistantMsg('draft'), assistantMsg('final')));
    const replies: string[] = [];
    agent.addHook({
      onEvent(event) {
        if (event.type !== 'postCall') return;
        replies.push(textOf(event.reply));
        throw new Error('postCall failed');
      },
    });
    const error = await lastValueFrom(agent.call(userMsg('x'))).catch((e: unknown) => e);
    expect((error as Error).message).toBe('postCall failed');
    expect(replies).toEqual(['final']);
    expect(agent.isRunning).toBe(false);
  });

  it('uses the last Msg when doCall emits several', () => {
    const agent = new TestAgent(() =>
      of(assistantMsg('draft'), assistantMsg('better'), assistantMsg('final')),
    );
    const { seen } = subscribeAndRecord(agent.call(userMsg('x')));
    expect(seen.values.map(textOf)).toEqual(['final']);
  });

  it("lets postCall hooks replace the reply, each seeing the previous one's", async () => {
    const agent = new TestAgent();
    agent.addHook({
      onEvent(event) {
        if (event.type === 'postCall') event.reply = assistantMsg(`${textOf(event.reply)}!`);
      },
    });
    agent.addHook({
      onEvent(event) {
        if (event.type !== 'postCall') return undefined;
        return { ...event, reply: assistantMsg(textOf(event.reply).toUpperCase()) };
      },
    });
    expect(textOf(await lastValueFrom(agent.call(userMsg('hey'))))).toBe('HEY!');
  });

  it("sets metadata.generateReason to 'stop' by default and keeps one doCall set", async () => {
    const plain = await lastValueFrom(new TestAgent().call(userMsg('x')));
    expect(plain.metadata['generateReason']).toBe('stop');

    const own = new TestAgent(() =>
      of(assistantMsg('x', { metadata: { generateReason: 'max_iterations' } })),
    );
    expect((await lastValueFrom(own.call())).metadata['generateReason']).toBe('max_iterations');
  });

  it('shows postCall hooks the reply with generateReason already set', async () => {
    const agent = new TestAgent();
    const reasons: unknown[] = [];
    agent.addHook({
      onEvent(event) {
        if (event.type === 'postCall') reasons.push(event.reply.metadata['generateReason']);
      },
    });
    await lastValueFrom(agent.call(userMsg('x')));
    expect(reasons).toEqual(['stop']);
  });

  it('sums metadata.usage over every addUsage of the call, and omits it when none was reported', async () => {
    const agent = new TestAgent((_msgs, context) =>
      defer(() => {
        context.addUsage({ inputTokens: 10, outputTokens: 2, totalTokens: 12 });
        context.addUsage(undefined);
        context.addUsage({ inputTokens: 5, outputTokens: 3, totalTokens: 8 });
        expect(context.usage).toEqual({ inputTokens: 15, outputTokens: 5, totalTokens: 20 });
        return of(assistantMsg('counted'));
      }),
    );
    const reply = await lastValueFrom(agent.call(userMsg('x')));
    expect(reply.metadata['usage']).toEqual({ inputTokens: 15, outputTokens: 5, totalTokens: 20 });

    const second = await lastValueFrom(new TestAgent().call(userMsg('x')));
    expect(second.metadata).not.toHaveProperty('usage');
  });

  it('starts every call with a fresh usage total', async () => {
    const agent = new TestAgent((_msgs, context) =>
      defer(() => {
        context.addUsage({ inputTokens: 1, outputTokens: 1, totalTokens: 2 });
        return of(assistantMsg('x'));
      }),
    );
    await lastValueFrom(agent.call());
    const reply = await lastValueFrom(agent.call());
    expect(reply.metadata['usage']).toEqual({ inputTokens: 1, outputTokens: 1, totalTokens: 2 });
  });

  it('errors with UnsupportedStructuredOutputError through the Observable, running nothing', async () => {
    const agent = new TestAgent();
    const hookEvents: string[] = [];
    agent.addHook({ onEvent: (event) => void hookEvents.push(event.type) });

    const call = agent.call(userMsg('x'), { structuredOutput: { type: 'object' } });
    const error = await firstValueFrom(call).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(UnsupportedStructuredOutputError);
    expect((error as Error).message).toContain('TestAgent does not support structured output');
    expect(hookEvents).toEqual([]);
    expect(agent.calls).toEqual([]);
    expect(agent.isRunning).toBe(false);
  });

  it.each([
    ['a number', 42],
    ['a plain object', { text: 'hello' }],
    ['an array holding a non-Msg', [userMsg('ok'), 42]],
  ])('errors with InvalidArgumentError through the Observable for %s', async (_label, input) => {
    const agent = new TestAgent();
    const call = agent.call(input as unknown as Msg);
    const error = await firstValueFrom(call).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(/tester\.call\(\): input\[\d\] is not a Msg/);
    expect(agent.calls).toEqual([]);
    expect(agent.isRunning).toBe(false);
  });
});

describe('AgentBase broadcast', () => {
  it('sends the reply to every subscriber after postCall hooks and before the caller receives it', async () => {
    const log: string[] = [];
    const agent = new TestAgent();
    const alice = new Listener('alice', log);
    const bob = new Listener('bob', log);
    agent.resetSubscribers('hub', [agent, alice, bob]);
    agent.addHook({
      onEvent(event) {
        if (event.type !== 'postCall') return;
        log.push('postCall');
        event.reply = withMetadata(assistantMsg('edited'), event.reply.metadata);
      },
    });

    await lastValueFrom(
      agent.call(userMsg('x')).pipe(tap((reply) => log.push(`caller got ${textOf(reply)}`))),
    );

    expect(log).toEqual([
      'postCall',
      'alice observed edited',
      'bob observed edited',
      'caller got edited',
    ]);
  });

  it('sends to an agent that is in two hubs once, and never to the agent itself', async () => {
    const log: string[] = [];
    class Speaker extends Listener {
      protected override doCall(msgs: Msg[]): Observable<Msg> {
        return of(assistantMsg(msgs.map(textOf).join(' ')));
      }
    }
    const agent = new Speaker('speaker', log);
    const alice = new Listener('alice', log);
    const bob = new Listener('bob', log);
    agent.resetSubscribers('hub-1', [agent, alice]);
    agent.resetSubscribers('hub-2', [alice, bob, agent]);

    await lastValueFrom(agent.call(userMsg('hi')));

    expect(log).toEqual(['alice observed hi', 'bob observed hi']);
  });

  it('stops sending for a hub after removeSubscribers and replaces a hub on resetSubscribers', async () => {
    const log: string[] = [];
    const agent = new TestAgent();
    agent.resetSubscribers('hub', [new Listener('alice', log)]);
    agent.resetSubscribers('hub', [new Listener('bob', log)]);
    await lastValueFrom(agent.call(userMsg('one')));

    agent.removeSubscribers('hub');
    await lastValueFrom(agent.call(userMsg('two')));

    expect(log).toEqual(['bob observed one']);
  });

  it('replies and reports to error hooks when a subscriber cannot observe the reply', async () => {
    const failure = new Error('observer broke');
    class Broken extends Listener {
      protected override doObserve(): Observable<void> {
        return defer(() => {
          throw failure;
        });
      }
    }
    const agent = new TestAgent();
    const after: string[] = [];
    agent.resetSubscribers('hub', [new Broken('broken', []), new Listener('after', after)]);
    const reported: unknown[] = [];
    agent.addHook({
      onEvent: (event) => void (event.type === 'error' && reported.push(event.error)),
    });
    const reply = await lastValueFrom(agent.call(userMsg('x')));
    expect(after).toEqual([`after observed ${textOf(reply)}`]);
    expect(reported).toEqual([expect.objectContaining({ code: 'OBSERVE_FAILED', cause: failure })]);
    expect(agent.isRunning).toBe(false);
  });
});

describe('AgentBase.observe', () => {
  it('emits one undefined and completes, doing nothing by default', () => {
    const agent = new TestAgent();
    const { seen } = subscribeAndRecord(agent.observe([userMsg('a'), userMsg('b')]));
    expect(seen.values).toEqual([undefined]);
    expect(seen.complete).toBe(true);
    expect(agent.calls).toEqual([]);
  });

  it('passes each message to doObserve in order, lazily', () => {
    const log: string[] = [];
    const listener = new Listener('alice', log);
    const observation = listener.observe([userMsg('one'), userMsg('two')]);
    expect(log).toEqual([]);

    const { seen } = subscribeAndRecord(observation);

    expect(log).toEqual(['alice observed one', 'alice observed two']);
    expect(seen.values).toEqual([undefined]);
  });

  it('errors with InvalidArgumentError through the Observable for a non-Msg', async () => {
    const observation = new TestAgent().observe({ nope: true } as unknown as Msg);
    await expect(lastValueFrom(observation)).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('errors with the error of doObserve', async () => {
    const failure = new Error('cannot store');
    class Failing extends Listener {
      protected override doObserve(): Observable<void> {
        return defer(() => {
          throw failure;
        });
      }
    }
    await expect(lastValueFrom(new Failing('f', []).observe(userMsg('x')))).rejects.toBe(failure);
  });
});
