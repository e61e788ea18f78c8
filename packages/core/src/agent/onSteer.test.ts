import { Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { assistantMsg, type Msg } from '../message/msg.js';
import { textOf } from '../message/readers.js';
import { AgentBase } from './agentBase.js';
import type { CallContext } from './callContext.js';

/** A call that forwards each steer at once (as a remote agent does) and replies on the second. */
class Forwarder extends AgentBase {
  readonly forwarded: string[] = [];
  listeners = 0;

  protected doCall(_msgs: Msg[], context: CallContext): Observable<Msg> {
    return new Observable<Msg>((subscriber) => {
      this.listeners++;
      const stop = context.onSteer?.(() => {
        for (const msg of context.takeSteered()) this.forwarded.push(textOf(msg));
        if (this.forwarded.length === 2) {
          subscriber.next(assistantMsg(this.forwarded.join(' + ')));
          subscriber.complete();
        }
      });
      return () => {
        stop?.();
        this.listeners--;
      };
    });
  }
}

describe('CallContext.onSteer', () => {
  it('tells the running call of each steer at once, with the messages ready to take, and stops on teardown', async () => {
    const agent = new Forwarder({ name: 'forwarder' });
    const reply = agent.reply('go');
    agent.steer('first');
    expect(agent.forwarded).toEqual(['first']);
    agent.steer('second');
    expect(textOf(await reply)).toBe('first + second');
    expect(agent.listeners).toBe(0);
  });
});
