import { filter, lastValueFrom, map, NEVER, type Observable, of, toArray } from 'rxjs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { AgentBusyError } from '../errors.js';
import type { ReasoningChunkEvent } from '../hooks/hookEvent.js';
import { assistantMsg, type Msg } from '../message/msg.js';
import { textOf } from '../message/readers.js';
import { AgentBase } from './agentBase.js';
import { isEvent } from './isEvent.js';

/** Echoes its input: each input Msg as `role:name:text`. */
class Echo extends AgentBase {
  constructor() {
    super({ name: 'echo' });
  }

  protected doCall(msgs: Msg[]): Observable<Msg> {
    return of(assistantMsg(msgs.map((m) => `${m.role}:${m.name}:${textOf(m)}`).join(' ')));
  }
}

/** Never replies. */
class Pending extends AgentBase {
  constructor() {
    super({ name: 'pending' });
  }

  protected doCall(): Observable<Msg> {
    return NEVER;
  }
}

describe('AgentBase string input and reply()', () => {
  it('sends a string to call() as one user message', async () => {
    const reply = await lastValueFrom(new Echo().call('hello'));
    expect(textOf(reply)).toBe('user:user:hello');
  });

  it('sends a string to stream() as one user message', async () => {
    const events = await lastValueFrom(new Echo().stream('hi').pipe(toArray()));
    const last = events[events.length - 1];
    expect(last?.type === 'reply' && textOf(last.msg)).toBe('user:user:hi');
  });

  it('resolves reply() with the reply of the call', async () => {
    const reply = await new Echo().reply('there');
    expect(textOf(reply)).toBe('user:user:there');
    expect(reply.metadata['generateReason']).toBe('stop');
  });

  it('rejects reply() with the error of the call (AgentBusyError while one is in flight)', async () => {
    const agent = new Pending();
    const running = agent.call('first').subscribe();

    await expect(agent.reply('second')).rejects.toBeInstanceOf(AgentBusyError);

    running.unsubscribe();
    expect(agent.isRunning).toBe(false);
  });
});

describe('isEvent', () => {
  it('narrows a stream() event by type', async () => {
    const events = await lastValueFrom(
      new Echo().stream('x').pipe(
        filter((event) => isEvent(event, 'reply')),
        map((event) => textOf(event.msg)),
        toArray(),
      ),
    );
    expect(events).toEqual(['user:user:x']);
  });

  it('types the narrowed event', () => {
    const check = (event: Parameters<typeof isEvent>[0]) => {
      if (isEvent(event, 'reasoningChunk'))
        expectTypeOf(event.delta).toEqualTypeOf<ReasoningChunkEvent['delta']>();
      return isEvent(event, 'postCall');
    };
    expect(check({ type: 'reply', msg: assistantMsg('x') })).toBe(false);
  });
});
