import { firstValueFrom, lastValueFrom, Observable, of, throwError, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { AgentBase } from '../agent/agentBase.js';
import { InvalidArgumentError, ObserveError } from '../errors.js';
import { assistantMsg, type Msg, userMsg } from '../message/msg.js';
import { textOf } from '../message/readers.js';
import { EchoAgent, ManualAgent } from '../testing/testAgents.js';
import { MsgHub, msgHub } from './msgHub.js';

const texts = (msgs: readonly Msg[]): string[] => msgs.map(textOf);

/** An agent whose `observe` is controlled by the test: it can fail or never finish. */
class ObserverAgent extends AgentBase {
  readonly observed: Msg[] = [];
  torndown = 0;
  constructor(
    name: string,
    readonly mode: 'fail' | 'hang',
  ) {
    super({ name });
  }
  protected doCall(): Observable<Msg> {
    return of(assistantMsg('ok', { name: this.name }));
  }
  protected override doObserve(msg: Msg): Observable<void> {
    this.observed.push(msg);
    if (this.mode === 'fail') return throwError(() => new Error(`${this.name} cannot observe`));
    return new Observable<void>(() => () => {
      this.torndown++;
    });
  }
}

/** An echo agent that writes `name:text` to a shared log for each message it observes. */
class LoggingAgent extends EchoAgent {
  constructor(
    name: string,
    readonly log: string[],
  ) {
    super({ name });
  }
  protected override doObserve(msg: Msg): Observable<void> {
    this.log.push(`${this.name}:${textOf(msg)}`);
    return super.doObserve(msg);
  }
}

function trio(): [EchoAgent, EchoAgent, EchoAgent] {
  return [
    new EchoAgent({ name: 'a', prefix: 'a:' }),
    new EchoAgent({ name: 'b', prefix: 'b:' }),
    new EchoAgent({ name: 'c', prefix: 'c:' }),
  ];
}

describe('MsgHub', () => {
  it('enters by broadcasting the announcement to every participant, then emits once and completes', async () => {
    const [a, b, c] = trio();
    const hub = new MsgHub({ participants: [a, b, c], announcement: userMsg('welcome') });
    expect(await lastValueFrom(hub.enter().pipe(toArray()))).toEqual([undefined]);
    for (const agent of [a, b, c]) expect(texts(agent.observed)).toEqual(['welcome']);
  });

  it('delivers each reply to all other participants and never to the speaker', async () => {
    const [a, b, c] = trio();
    const hub = new MsgHub({ participants: [a, b, c] });
    await lastValueFrom(hub.enter());
    await lastValueFrom(a.call(userMsg('1')));
    await lastValueFrom(b.call(userMsg('2')));
    expect(texts(a.observed)).toEqual(['b:2']);
    expect(texts(b.observed)).toEqual(['a:1']);
    expect(texts(c.observed)).toEqual(['a:1', 'b:2']);
  });

  it('has subscribers observe a reply before the caller receives it', async () => {
    const [a, b] = trio();
    const hub = new MsgHub({ participants: [a, b] });
    await lastValueFrom(hub.enter());
    const seenByB: string[][] = [];
    const reply = await new Promise<Msg>((resolve, reject) => {
      a.call(userMsg('y')).subscribe({
        next: (msg) => {
          seenByB.push(texts(b.observed));
          resolve(msg);
        },
        error: reject,
      });
    });
    expect(seenByB).toEqual([['a:y']]);
    expect(b.observed[0]).toBe(reply);
  });

  it('does not subscribe participants to each other when autoBroadcast is false', async () => {
    const [a, b] = trio();
    const hub = new MsgHub({
      participants: [a, b],
      autoBroadcast: false,
      announcement: userMsg('hi'),
    });
    await lastValueFrom(hub.enter());
    await lastValueFrom(a.call(userMsg('1')));
    expect(texts(b.observed)).toEqual(['hi']);
    await lastValueFrom(hub.broadcast(userMsg('manual')));
    expect(texts(b.observed)).toEqual(['hi', 'manual']);
  });

  it('turns auto-broadcast on and off while entered', async () => {
    const [a, b] = trio();
    const hub = new MsgHub({ participants: [a, b], autoBroadcast: false });
    await lastValueFrom(hub.enter());
    hub.setAutoBroadcast(true);
    await lastValueFrom(a.call(userMsg('on')));
    hub.setAutoBroadcast(false);
    await lastValueFrom(a.call(userMsg('off')));
    expect(hub.autoBroadcast).toBe(false);
    expect(texts(b.observed)).toEqual(['a:on']);
  });

  it('subscribes an added agent both ways at once when entered', async () => {
    const [a, b, c] = trio();
    const hub = new MsgHub({ participants: [a, b] });
    await lastValueFrom(hub.enter());
    hub.add(c);
    hub.add([c, a]);
    expect(hub.participants).toEqual([a, b, c]);
    await lastValueFrom(a.call(userMsg('1')));
    await lastValueFrom(c.call(userMsg('2')));
    expect(texts(c.observed)).toEqual(['a:1']);
    expect(texts(a.observed)).toEqual(['c:2']);
    expect(texts(b.observed)).toEqual(['a:1', 'c:2']);
  });

  it('subscribes nobody before enter(), even after add()', async () => {
    const [a, b, c] = trio();
    const hub = new MsgHub({ participants: [a] });
    hub.add([b, c]);
    await lastValueFrom(a.call(userMsg('early')));
    expect(b.observed).toEqual([]);
    await lastValueFrom(hub.enter());
    await lastValueFrom(a.call(userMsg('late')));
    expect(texts(b.observed)).toEqual(['a:late']);
  });

  it('stops broadcasting to and from a deleted agent', async () => {
    const [a, b, c] = trio();
    const hub = new MsgHub({ participants: [a, b, c] });
    await lastValueFrom(hub.enter());
    hub.delete(c);
    hub.delete([c]);
    expect(hub.participants).toEqual([a, b]);
    await lastValueFrom(a.call(userMsg('1')));
    await lastValueFrom(c.call(userMsg('2')));
    expect(c.observed).toEqual([]);
    expect(texts(a.observed)).toEqual([]);
    expect(texts(b.observed)).toEqual(['a:1']);
  });

  it('stops all broadcasting on exit, idempotently, leaving other hubs alone', async () => {
    const [a, b, c] = trio();
    const hub = new MsgHub({ participants: [a, b] });
    const other = new MsgHub({ participants: [a, c] });
    await lastValueFrom(hub.enter());
    await lastValueFrom(other.enter());
    hub.exit();
    hub.exit();
    await lastValueFrom(a.call(userMsg('1')));
    expect(b.observed).toEqual([]);
    expect(texts(c.observed)).toEqual(['a:1']);
    hub.add(b);
    await lastValueFrom(a.call(userMsg('2')));
    expect(b.observed).toEqual([]);
  });

  it('broadcasts to participants one after another in participant order', async () => {
    const log: string[] = [];
    const [x, y, z] = ['x', 'y', 'z'].map((name) => new LoggingAgent(name, log));
    const hub = new MsgHub({ participants: [z!, x!, y!] });
    const values = await lastValueFrom(hub.broadcast([userMsg('1'), userMsg('2')]).pipe(toArray()));
    expect(values).toEqual([undefined]);
    expect(log).toEqual(['z:1', 'z:2', 'x:1', 'x:2', 'y:1', 'y:2']);
  });

  it("delivers a reply to every subscriber when one fails to observe, reporting it through the speaker's error hooks", async () => {
    const [a, , c] = trio();
    const failing = new ObserverAgent('f', 'fail');
    const hub = new MsgHub({ participants: [a, failing, c] });
    await lastValueFrom(hub.enter());
    const reported: unknown[] = [];
    a.addHook({
      onEvent: (event) => {
        if (event.type === 'error') reported.push(event.error);
      },
    });

    const reply = await lastValueFrom(a.call(userMsg('x')));

    expect(textOf(reply)).toBe('a:x');
    expect(texts(c.observed)).toEqual(['a:x']);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toBeInstanceOf(ObserveError);
    expect(reported[0]).toMatchObject({ code: 'OBSERVE_FAILED', agentName: 'f' });
    expect(String((reported[0] as Error).message)).toMatch(/"f".*f cannot observe/);
    expect(a.isRunning).toBe(false);
  });

  it('has every participant observe a broadcast before erroring with the first failure', async () => {
    const [a, , c] = trio();
    const failing = new ObserverAgent('f', 'fail');
    const hub = new MsgHub({ participants: [a, failing, c] });
    await expect(lastValueFrom(hub.broadcast(userMsg('hi')))).rejects.toThrow('f cannot observe');
    expect(texts(a.observed)).toEqual(['hi']);
    expect(texts(c.observed)).toEqual(['hi']);
  });

  it('errors from broadcast() for a non-Msg, without throwing synchronously', async () => {
    const hub = new MsgHub({ participants: trio() });
    const broadcast = hub.broadcast({ not: 'a msg' } as unknown as Msg);
    await expect(firstValueFrom(broadcast)).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('errors from enter() when a participant cannot observe the announcement', async () => {
    const failing = new ObserverAgent('f', 'fail');
    const [a] = trio();
    const hub = new MsgHub({ participants: [a, failing], announcement: userMsg('hi') });
    await expect(lastValueFrom(hub.enter())).rejects.toThrow('f cannot observe');
  });

  it('tears down a pending observe when a broadcast is unsubscribed', () => {
    const hanging = new ObserverAgent('h', 'hang');
    const hub = new MsgHub({ participants: [hanging] });
    const values: unknown[] = [];
    const subscription = hub.broadcast(userMsg('hi')).subscribe((value) => values.push(value));
    expect(hanging.observed).toHaveLength(1);
    subscription.unsubscribe();
    expect(hanging.torndown).toBe(1);
    expect(values).toEqual([]);
  });

  it('rejects participants that are not agents and ignores duplicates', () => {
    const [a] = trio();
    expect(() => new MsgHub({ participants: [a, {} as AgentBase] })).toThrow(InvalidArgumentError);
    expect(() => new MsgHub({} as never)).toThrow(/expected an array of agents/);
    expect(new MsgHub({ participants: [a, a] }).participants).toEqual([a]);
  });

  it('returns a copy of its participants and has an id and a name', () => {
    const [a, b] = trio();
    const hub = new MsgHub({ participants: [a], name: 'room' });
    (hub.participants as AgentBase[]).push(b);
    expect(hub.participants).toEqual([a]);
    expect(hub.name).toBe('room');
    expect(hub.id).not.toBe(new MsgHub({ participants: [] }).id);
  });
});

describe('msgHub', () => {
  it('enters, runs the body, emits its values and exits when it completes', async () => {
    const [a, b] = trio();
    let inside: MsgHub | undefined;
    const replies = await lastValueFrom(
      msgHub({ participants: [a, b], announcement: userMsg('hi') }, (hub) => {
        inside = hub;
        return a.call(userMsg('1'));
      }).pipe(toArray()),
    );
    expect(texts(replies)).toEqual(['a:1']);
    expect(texts(b.observed)).toEqual(['hi', 'a:1']);
    expect(inside?.participants).toEqual([a, b]);
    await lastValueFrom(a.call(userMsg('after')));
    expect(texts(b.observed)).toEqual(['hi', 'a:1']);
  });

  it('has exited by the time the caller sees completion', async () => {
    const [a, b] = trio();
    const observedAtComplete = await new Promise<number>((resolve, reject) => {
      msgHub({ participants: [a, b] }, () => of('done')).subscribe({
        complete: () => {
          a.call(userMsg('late')).subscribe({ error: reject });
          resolve(b.observed.length);
        },
        error: reject,
      });
    });
    expect(observedAtComplete).toBe(0);
  });

  it('exits when the body errors and passes the error on', async () => {
    const [a, b] = trio();
    const run = msgHub({ participants: [a, b] }, () => throwError(() => new Error('body failed')));
    await expect(lastValueFrom(run)).rejects.toThrow('body failed');
    await lastValueFrom(a.call(userMsg('after')));
    expect(b.observed).toEqual([]);
  });

  it('exits when the body throws synchronously', async () => {
    const [a, b] = trio();
    const run = msgHub({ participants: [a, b] }, () => {
      throw new Error('thrown');
    });
    await expect(lastValueFrom(run)).rejects.toThrow('thrown');
    await lastValueFrom(a.call(userMsg('after')));
    expect(b.observed).toEqual([]);
  });

  it('accepts a Promise body', async () => {
    const [a, b] = trio();
    const run = msgHub({ participants: [a, b] }, async () =>
      textOf(await lastValueFrom(a.call(userMsg('p')))),
    );
    expect(await lastValueFrom(run)).toBe('a:p');
    expect(texts(b.observed)).toEqual(['a:p']);
  });

  it('exits and cancels the body when unsubscribed', async () => {
    const slow = new ManualAgent({ name: 'slow' });
    const [a, b] = trio();
    const subscription = msgHub({ participants: [slow, a, b] }, () =>
      slow.call(userMsg('go')),
    ).subscribe();
    expect(slow.isPending).toBe(true);
    await lastValueFrom(a.call(userMsg('during')));
    expect(texts(b.observed)).toEqual(['a:during']);
    subscription.unsubscribe();
    expect(slow.signals[0]?.aborted).toBe(true);
    await lastValueFrom(a.call(userMsg('after')));
    expect(texts(b.observed)).toEqual(['a:during']);
  });

  it('errors through the Observable for bad options, without throwing synchronously', async () => {
    const run = msgHub({ participants: 'nope' } as never, () => of(1));
    await expect(lastValueFrom(run)).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});
