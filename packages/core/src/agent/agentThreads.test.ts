import { lastValueFrom, NEVER, type Observable, of, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { assistantMsg, type Msg, userMsg } from '../message/msg.js';
import { textOf } from '../message/readers.js';
import { EchoAgent } from '../testing/testAgents.js';
import { AgentBase } from './agentBase.js';
import type { AgentEvent } from './agentEvent.js';
import { type AgentHostLike, agentThreads } from './agentThreads.js';

const replyText = async (events: Observable<AgentEvent>): Promise<string> => {
  const all = await lastValueFrom(events.pipe(toArray()));
  const last = all.at(-1);
  return last?.type === 'reply' ? textOf(last.msg) : '';
};

describe('agentThreads', () => {
  it('serves every context with one agent', async () => {
    const agent = new EchoAgent({ name: 'echo' });
    const threads = agentThreads(agent, 10, 'test');
    await replyText(threads.stream('a', [userMsg('1')]));
    await replyText(threads.stream('b', [userMsg('2')]));
    expect(agent.calls).toHaveLength(2);
  });

  it('makes one agent per context with a factory, and keeps it for the next call', async () => {
    const made: string[] = [];
    const threads = agentThreads(
      (id) => {
        made.push(id);
        return new EchoAgent({ name: 'echo', prefix: `${id}:` });
      },
      10,
      'test',
    );
    expect(await replyText(threads.stream('a', [userMsg('x')]))).toBe('a:x');
    expect(await replyText(threads.stream('b', [userMsg('y')]))).toBe('b:y');
    expect(await replyText(threads.stream('a', [userMsg('z')]))).toBe('a:z');
    expect(made).toEqual(['a', 'b']);
  });

  it('drops the least recently used idle context past maxContexts, never a running one', async () => {
    const made: string[] = [];
    class Hanging extends AgentBase {
      protected doCall(): Observable<Msg> {
        return NEVER;
      }
    }
    const threads = agentThreads(
      (id) => {
        made.push(id);
        return id === 'busy' ? new Hanging({ name: 'h' }) : new EchoAgent({ name: 'e' });
      },
      1,
      'test',
    );
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    const running = threads.stream('busy', [userMsg('wait')]).subscribe();
    await tick();
    // Over the bound while "busy" runs: the idle one goes instead.
    await replyText(threads.stream('a', [userMsg('1')]));
    await replyText(threads.stream('a', [userMsg('2')]));
    running.unsubscribe();
    await replyText(threads.stream('b', [userMsg('3')]));
    const again = threads.stream('busy', [userMsg('wait')]).subscribe();
    await tick();
    again.unsubscribe();
    expect(made).toEqual(['busy', 'a', 'a', 'b', 'busy']);
  });

  it('errors the call when the factory fails, and asks again next time', async () => {
    let attempts = 0;
    const threads = agentThreads(
      () => {
        attempts += 1;
        if (attempts === 1) throw new Error('no agent yet');
        return new EchoAgent({ name: 'e' });
      },
      10,
      'test',
    );
    await expect(replyText(threads.stream('a', [userMsg('x')]))).rejects.toThrow('no agent yet');
    expect(await replyText(threads.stream('a', [userMsg('x')]))).toBe('x');
    const bad = agentThreads(() => ({}) as AgentBase, 10, 'test');
    await expect(replyText(bad.stream('a', [userMsg('x')]))).rejects.toThrow(/not an agent/);
  });

  it('uses an agent host by thread id', async () => {
    const calls: string[] = [];
    const host: AgentHostLike = {
      stream: (threadId) => {
        calls.push(`stream ${threadId}`);
        return of({ type: 'reply' as const, msg: assistantMsg(`from ${threadId}`) });
      },
      interrupt: (threadId) => calls.push(`interrupt ${threadId}`),
    };
    const threads = agentThreads(host, 10, 'test');
    expect(await replyText(threads.stream('t1', [userMsg('x')]))).toBe('from t1');
    threads.interrupt('t1');
    expect(calls).toEqual(['stream t1', 'interrupt t1']);
  });

  it('rejects a source of another kind, naming the owner', () => {
    expect(() => agentThreads(42 as never, 10, 'a2aHandler')).toThrow(
      /a2aHandler: expected an agent/,
    );
  });
});
