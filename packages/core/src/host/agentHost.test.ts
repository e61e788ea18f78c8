import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../agent/agentEvent.js';
import type { CallContext } from '../agent/callContext.js';
import { AgentBusyError, InvalidArgumentError, StateError } from '../errors.js';
import type { Msg } from '../message/msg.js';
import { textOf } from '../message/readers.js';
import { InMemorySession } from '../state/inMemorySession.js';
import { EchoAgent, ManualAgent } from '../testing/testAgents.js';
import { AgentHost } from './agentHost.js';

/** Lets pending promise callbacks and microtasks run. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A host whose threads are ManualAgents, each kept in `agents` by thread id. */
function manualHost(maxLive?: number) {
  const agents = new Map<string, ManualAgent>();
  const host = new AgentHost({
    create: (threadId) => {
      const agent = new ManualAgent({ name: `agent-${threadId}` });
      agents.set(threadId, agent);
      return agent;
    },
    ...(maxLive !== undefined && { maxLive }),
  });
  return { host, agents };
}

/** A ManualAgent that keeps the context of each call, to ask what it listens to. */
class ContextAgent extends ManualAgent {
  readonly contexts: CallContext[] = [];

  protected override record(msgs: Msg[], context: CallContext): void {
    super.record(msgs, context);
    this.contexts.push(context);
  }
}

/** A host whose threads are ContextAgents, each kept in `agents` by thread id. */
function contextHost() {
  const agents = new Map<string, ContextAgent>();
  const host = new AgentHost({
    create: (threadId) => {
      const agent = new ContextAgent({ name: `agent-${threadId}` });
      agents.set(threadId, agent);
      return agent;
    },
  });
  return { host, agents };
}

describe('AgentHost', () => {
  it('creates one agent per thread on first use and reuses it', async () => {
    const created: string[] = [];
    const host = new AgentHost({
      create: (threadId) => {
        created.push(threadId);
        return new EchoAgent({ name: 'echo' });
      },
    });

    expect(textOf(await host.reply('a', 'one'))).toBe('one');
    expect(textOf(await host.reply('b', 'two'))).toBe('two');
    expect(textOf(await host.reply('a', 'three'))).toBe('three');
    expect(created).toEqual(['a', 'b']);
    expect(host.liveThreads).toBe(2);
  });

  it('runs one call per thread at a time, queuing the rest in order, while threads run concurrently', async () => {
    const { host, agents } = manualHost();
    const order: string[] = [];
    const track = (thread: string, input: string) =>
      host.reply(thread, input).then((reply) => order.push(`${thread}:${textOf(reply)}`));

    const a1 = track('a', 'a1');
    const a2 = track('a', 'a2');
    const b1 = track('b', 'b1');
    await settle();
    const a = agents.get('a');
    const b = agents.get('b');
    expect(a?.calls.map((msgs) => msgs.map(textOf))).toEqual([['a1']]); // a2 waits
    expect(b?.calls.map((msgs) => msgs.map(textOf))).toEqual([['b1']]); // b runs beside a

    b?.respond('B1');
    await b1;
    a?.respond('A1');
    await a1;
    await settle();
    expect(a?.calls.map((msgs) => msgs.map(textOf))).toEqual([['a1'], ['a2']]);
    a?.respond('A2');
    await a2;
    expect(order).toEqual(['b:B1', 'a:A1', 'a:A2']);
  });

  it('attach() replays the running call from its start, follows it live and ends with its reply', async () => {
    const { host, agents } = manualHost();
    const caller = lastValueFrom(host.stream('t', 'hello').pipe(toArray()));
    await settle();

    const follower = lastValueFrom(host.attach('t').pipe(toArray()));
    agents.get('t')?.respond('hi there');

    const [own, followed] = await Promise.all([caller, follower]);
    expect(followed).toEqual(own);
    expect(own.map((event) => event.type)).toEqual(['preCall', 'postCall', 'reply']);
    expect(textOf((own.at(-1) as Extract<AgentEvent, { type: 'reply' }>).msg)).toBe('hi there');
  });

  it('a call() nobody follows builds no events; attach() records them from then on and ends with the reply', async () => {
    const { host, agents } = contextHost();
    const caller = host.reply('t', 'hello');
    await settle();
    const context = agents.get('t')?.contexts[0];
    expect(context?.listens('postCall')).toBe(false);

    const follower = lastValueFrom(host.attach('t').pipe(toArray()));
    expect(context?.listens('postCall')).toBe(true);
    agents.get('t')?.respond('hi there');

    const [reply, followed] = await Promise.all([caller, follower]);
    expect(textOf(reply)).toBe('hi there');
    expect(followed.map((event) => event.type)).toEqual(['postCall', 'reply']);
    expect(textOf((followed.at(-1) as Extract<AgentEvent, { type: 'reply' }>).msg)).toBe(
      'hi there',
    );
    // The next call, followed by nobody, is plain again.
    const next = host.reply('t', 'again');
    await settle();
    expect(agents.get('t')?.contexts[1]?.listens('postCall')).toBe(false);
    agents.get('t')?.respond('done');
    expect(textOf(await next)).toBe('done');
  });

  it('a follower that attaches to a call() while its agent loads gets every event from the start', async () => {
    const { host, agents } = contextHost();
    const caller = host.reply('t', 'hello');
    const follower = lastValueFrom(host.attach('t').pipe(toArray()));
    await settle();
    agents.get('t')?.respond('hi there');

    const [reply, followed] = await Promise.all([caller, follower]);
    expect(textOf(reply)).toBe('hi there');
    expect(followed.map((event) => event.type)).toEqual(['preCall', 'postCall', 'reply']);
  });

  it('a call() still errors with its error, and a follower with it', async () => {
    const { host, agents } = contextHost();
    const caller = host.reply('t', 'hello');
    await settle();
    const follower = lastValueFrom(host.attach('t').pipe(toArray()));
    agents.get('t')?.fail(new Error('model down'));
    await expect(caller).rejects.toThrow('model down');
    await expect(follower).rejects.toThrow('model down');
    expect(host.isLive('t')).toBe(true);
  });

  it('attach() completes at once when nothing runs on the thread', async () => {
    const { host } = manualHost();
    expect(await lastValueFrom(host.attach('idle').pipe(toArray()))).toEqual([]);
  });

  it('interrupts the running call of a thread, and nothing elsewhere', async () => {
    const { host, agents } = manualHost();
    const a = host.reply('a', 'long task');
    const b = host.reply('b', 'other');
    await settle();

    host.interrupt('a');
    expect(agents.get('a')?.signals[0]?.aborted).toBe(true);
    expect(agents.get('b')?.signals[0]?.aborted).toBe(false);
    agents.get('a')?.fail(agents.get('a')?.signals[0]?.reason);
    expect((await a).metadata['generateReason']).toBe('interrupted');
    agents.get('b')?.respond('fine');
    expect(textOf(await b)).toBe('fine');
  });

  it('forgets a queued call that is unsubscribed before its turn', async () => {
    const { host, agents } = manualHost();
    const first = host.reply('t', 'first');
    const dropped = host.call('t', 'dropped').subscribe();
    const last = host.reply('t', 'last');
    await settle();
    dropped.unsubscribe();

    agents.get('t')?.respond('1');
    await first;
    await settle();
    agents.get('t')?.respond('2');
    await last;
    expect(agents.get('t')?.calls.map((msgs) => msgs.map(textOf))).toEqual([['first'], ['last']]);
  });

  it('evicts the least recently used idle thread beyond maxLive and never a busy one', async () => {
    const { host, agents } = manualHost(2);
    const running = host.reply('busy', 'x');
    await settle();
    const quick = async (thread: string) => {
      const reply = host.reply(thread, 'hi');
      await settle();
      agents.get(thread)?.respond('ok');
      await reply;
    };

    await quick('a');
    await quick('b');
    await settle();

    expect(host.isLive('busy')).toBe(true);
    expect(host.isLive('a')).toBe(false);
    expect(host.isLive('b')).toBe(true);
    expect(host.liveThreads).toBe(2);
    agents.get('busy')?.respond('done');
    await running;
  });

  it('saves each call to the session and loads a thread from it', async () => {
    const session = new InMemorySession();
    const host = new AgentHost({ create: () => new EchoAgent({ name: 'echo' }), session });
    await host.reply('alice', 'hi');
    expect(await session.list()).toEqual(['alice']);
  });

  it('evict(threadId, { save: false }) drops a changed agent unsaved; the thread loads from the session next', async () => {
    const session = new InMemorySession();
    const agents: ManualAgent[] = [];
    const host = new AgentHost({
      create: () => {
        agents.push(new ManualAgent({ name: 'manual' }));
        return agents.at(-1) as ManualAgent;
      },
      session,
    });
    const first = host.reply('alice', 'one');
    await settle();
    agents[0]?.respond('first');
    await first;
    const saved = await session.load('alice');
    // A cancelled call changes the agent without a save (the host saves after a reply).
    const cancelled = host.call('alice', 'two').subscribe();
    await settle();
    await expect(host.evict('alice', { save: false })).rejects.toBeInstanceOf(AgentBusyError);
    cancelled.unsubscribe();
    await host.evict('alice', { save: false });
    expect(host.isLive('alice')).toBe(false);
    expect(await session.load('alice')).toEqual(saved);
    // The next use loads the stored state into a new agent.
    const next = host.reply('alice', 'three');
    await settle();
    expect(agents).toHaveLength(2);
    agents[1]?.respond('third');
    expect(textOf(await next)).toBe('third');
  });

  it('names the session key of a stored state that does not load', async () => {
    const session = new InMemorySession();
    await session.save('alice', { version: 1, agentName: 'echo', nonsense: true });
    const host = new AgentHost({ create: () => new EchoAgent({ name: 'echo' }), session });
    const error = await host.reply('alice', 'hi').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateError);
    expect((error as Error).message).toMatch(/^Cannot load session key "alice": /);
  });

  it('delete() forgets a thread and its saved state, and refuses a busy one', async () => {
    const session = new InMemorySession();
    const { host, agents } = manualHost();
    const busy = host.reply('busy', 'x');
    await settle();
    await expect(host.delete('busy')).rejects.toThrow(/still running/);
    agents.get('busy')?.respond('done');
    await busy;

    const saving = new AgentHost({ create: () => new EchoAgent({ name: 'echo' }), session });
    await saving.reply('t', 'hi');
    await saving.delete('t');
    expect(saving.isLive('t')).toBe(false);
    expect(await session.list()).toEqual([]);
  });

  it('rejects bad options and thread ids with errors naming them', async () => {
    expect(
      () => new AgentHost({ create: () => new EchoAgent({ name: 'e' }), maxlive: 3 } as never),
    ).toThrow(/AgentHost: unknown option "maxlive" \(did you mean "maxLive"\?\)/);
    expect(() => new AgentHost({} as never)).toThrow(InvalidArgumentError);
    expect(() => new AgentHost({ create: () => new EchoAgent({ name: 'e' }), maxLive: 0 })).toThrow(
      /maxLive must be a positive integer/,
    );
    const host = new AgentHost({ create: () => new EchoAgent({ name: 'e' }) });
    await expect(host.reply('', 'x')).rejects.toThrow(/thread id must be a non-empty string/);
    await expect(lastValueFrom(host.attach(''))).rejects.toThrow(
      /AgentHost.attach\(\): the thread id must be a non-empty string \(got ""\)/,
    );
    await expect(lastValueFrom(host.attach(undefined as never))).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
  });
});

describe('AgentHost({ durable: true })', () => {
  it('needs a session: an error at construction without one', () => {
    expect(
      () => new AgentHost({ create: () => new EchoAgent({ name: 'e' }), durable: true }),
    ).toThrow(/AgentHost: durable: true needs a session/);
  });

  it('gives create the durable option to pass on (the host session, key = thread id), and its agents are durable', async () => {
    const session = new InMemorySession();
    const seen: unknown[] = [];
    const host = new AgentHost({
      create: (threadId, context) => {
        seen.push([threadId, context]);
        return new EchoAgent({ name: 'e', ...context });
      },
      session,
      durable: true,
    });
    expect(textOf(await host.reply('t1', 'hello'))).toBe('hello');
    expect(seen).toEqual([['t1', { durable: { session, key: 't1' } }]]);
    // The agent checkpointed itself under the thread id.
    expect(await session.list()).toContain('t1');
    // A host that is not durable gives an empty context.
    const plain = new AgentHost({
      create: (threadId, context) => {
        seen.push([threadId, context]);
        return new EchoAgent({ name: 'e' });
      },
    });
    await plain.reply('t2', 'hi');
    expect(seen.at(-1)).toEqual(['t2', {}]);
  });

  it('fails at once, naming create, when create returns an agent that is not durable', async () => {
    const agent = new EchoAgent({ name: 'e' });
    const host = new AgentHost({
      create: () => agent,
      session: new InMemorySession(),
      durable: true,
    });
    await expect(host.reply('t1', 'hello')).rejects.toThrow(
      /create\("t1"\) returned an agent that is not durable.*\{ durable \}/,
    );
    await expect(host.reply('t1', 'hello')).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(lastValueFrom(host.recover('t1', 'some-input'))).rejects.toThrow(/not durable/);
    expect(agent.calls).toEqual([]);
  });
});
