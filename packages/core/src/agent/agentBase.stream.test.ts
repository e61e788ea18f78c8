import {
  concat,
  defer,
  lastValueFrom,
  map,
  Observable,
  of,
  Subject,
  throwError,
  toArray,
} from 'rxjs';
import { describe, expect, it } from 'vitest';
import { AgentBusyError } from '../errors.js';
import type { HookEvent, PreCallEvent, ReasoningChunkEvent } from '../hooks/hookEvent.js';
import { assistantMsg, type Msg, userMsg } from '../message/msg.js';
import { textOf } from '../message/readers.js';
import { subscribeAndRecord } from '../testing/subscribeAndRecord.js';
import { AgentBase, tapRunning } from './agentBase.js';
import type { AgentEvent } from './agentEvent.js';
import type { CallContext } from './callContext.js';

/** Streams `words` as reasoningChunk events, then replies with them joined. */
class Talker extends AgentBase {
  readonly contexts: CallContext[] = [];

  constructor(
    readonly words: string[] = ['Hello', ' there'],
    readonly failWith?: unknown,
  ) {
    super({ name: 'talker' });
  }

  protected doCall(_msgs: Msg[], context: CallContext): Observable<Msg> {
    this.contexts.push(context);
    let text = '';
    const chunks = this.words.map((word) =>
      defer(() => {
        text += word;
        return this.notify<ReasoningChunkEvent>({
          type: 'reasoningChunk',
          agent: this,
          delta: { text: word },
          accumulated: assistantMsg(text, { name: this.name }),
        });
      }),
    );
    const end = defer(() =>
      this.failWith === undefined
        ? of(assistantMsg(text, { name: this.name }))
        : throwError(() => this.failWith),
    );
    return concat(...chunks.map((chunk) => chunk.pipe(toArray())), end) as Observable<Msg>;
  }
}

class Waiter extends AgentBase {
  readonly contexts: CallContext[] = [];
  tornDown = false;

  protected doCall(_msgs: Msg[], context: CallContext): Observable<Msg> {
    this.contexts.push(context);
    return new Observable<Msg>((subscriber) => {
      const onAbort = () => subscriber.error(context.signal.reason);
      context.signal.addEventListener('abort', onAbort);
      return () => {
        this.tornDown = true;
        context.signal.removeEventListener('abort', onAbort);
      };
    });
  }
}

function types(events: AgentEvent[]): string[] {
  return events.map((event) => event.type);
}

describe('AgentBase.stream', () => {
  it('emits every hook event of the call in order, then the reply, then completes', () => {
    const agent = new Talker();
    const { seen } = subscribeAndRecord(agent.stream(userMsg('hi')));

    expect(types(seen.values)).toEqual([
      'preCall',
      'reasoningChunk',
      'reasoningChunk',
      'postCall',
      'reply',
    ]);
    expect(seen.complete).toBe(true);
    const chunks = seen.values.filter(
      (e): e is Extract<AgentEvent, { type: 'reasoningChunk' }> => e.type === 'reasoningChunk',
    );
    expect(chunks.map((chunk) => chunk.delta.text)).toEqual(['Hello', ' there']);
    expect(chunks.map((chunk) => textOf(chunk.accumulated))).toEqual(['Hello', 'Hello there']);
  });

  it('ends with the same reply call() gives, metadata included', async () => {
    const events = await lastValueFrom(new Talker().stream(userMsg('hi')).pipe(toArray()));
    const last = events.at(-1);
    expect(last?.type).toBe('reply');
    if (last?.type !== 'reply') return;
    expect(textOf(last.msg)).toBe('Hello there');
    expect(last.msg.metadata['generateReason']).toBe('stop');
    const postCall = events.find((event) => event.type === 'postCall');
    expect(postCall && 'reply' in postCall && postCall.reply).toBe(last.msg);
  });

  it('emits frozen snapshots of each event as all hooks left it', () => {
    const agent = new Talker();
    agent.addHook({
      onEvent(event) {
        if (event.type === 'preCall') event.systemPrompt = 'edited by hook';
      },
    });
    const { seen } = subscribeAndRecord(agent.stream(userMsg('hi')));

    for (const event of seen.values) expect(Object.isFrozen(event)).toBe(true);
    const preCall = seen.values[0];
    expect(preCall?.type === 'preCall' && preCall.systemPrompt).toBe('edited by hook');
    expect(() => {
      (preCall as { systemPrompt: string }).systemPrompt = 'changed';
    }).toThrow(TypeError);
  });

  it('keeps earlier snapshots unchanged when the live event is changed later', () => {
    const agent = new Talker();
    let live: PreCallEvent | undefined;
    const originalInput: Msg[] = [];
    agent.addHook({
      onEvent(event: HookEvent) {
        if (event.type === 'preCall') {
          live = event;
          originalInput.push(...event.input);
        }
        if (event.type === 'postCall' && live) {
          live.systemPrompt = 'mutated later';
          live.input = [userMsg('swapped later')];
        }
      },
    });
    const { seen } = subscribeAndRecord(agent.stream(userMsg('hi')));

    const snapshot = seen.values[0];
    expect(snapshot?.type).toBe('preCall');
    if (snapshot?.type !== 'preCall') return;
    expect(snapshot).not.toBe(live);
    expect(snapshot.systemPrompt).toBe('');
    expect(snapshot.input).toEqual(originalInput);
    expect(live?.systemPrompt).toBe('mutated later');
  });

  it('copies only the top level: a snapshot shares the messages, never deep-copies them', () => {
    const agent = new Talker();
    const input = userMsg('hi');
    const { seen } = subscribeAndRecord(agent.stream(input));
    const snapshot = seen.values[0];
    expect(snapshot?.type === 'preCall' && snapshot.input[0]).toBe(input);
  });

  it('is cold: nothing runs before subscription', () => {
    const agent = new Talker();
    const stream = agent.stream(userMsg('hi'));
    expect(agent.contexts).toEqual([]);
    subscribeAndRecord(stream);
    subscribeAndRecord(stream);
    expect(agent.contexts).toHaveLength(2);
  });

  it('emits the error event, then errors with the very error of the call', () => {
    const failure = new Error('mid-stream failure');
    const { seen } = subscribeAndRecord(new Talker(['Hel'], failure).stream(userMsg('hi')));

    expect(types(seen.values)).toEqual(['preCall', 'reasoningChunk', 'error']);
    const errorEvent = seen.values[2];
    expect(errorEvent?.type === 'error' && errorEvent.error).toBe(failure);
    expect(Object.isFrozen(errorEvent)).toBe(true);
    expect(seen.error).toBe(failure);
  });

  it('emits no postCall snapshot when a postCall hook fails', () => {
    const agent = new Talker();
    const failure = new Error('postCall hook broke');
    agent.addHook({
      onEvent(event) {
        if (event.type === 'postCall') throw failure;
      },
    });
    const { seen } = subscribeAndRecord(agent.stream(userMsg('hi')));
    expect(types(seen.values)).toEqual(['preCall', 'reasoningChunk', 'reasoningChunk', 'error']);
    expect(seen.error).toBe(failure);
  });

  it('cancels the call when unsubscribed: signal aborted, doCall torn down, agent free', () => {
    const agent = new Waiter({ name: 'waiter' });
    const { seen, subscription } = subscribeAndRecord(agent.stream(userMsg('hi')));
    expect(types(seen.values)).toEqual(['preCall']);
    expect(agent.isRunning).toBe(true);

    subscription.unsubscribe();

    expect(agent.tornDown).toBe(true);
    expect(agent.contexts[0]?.signal.aborted).toBe(true);
    expect(agent.isRunning).toBe(false);
    expect(types(seen.values)).toEqual(['preCall']);
  });

  it('emits the interrupt reply through postCall and reply events', () => {
    const agent = new Waiter({ name: 'waiter' });
    const { seen } = subscribeAndRecord(agent.stream(userMsg('hi')));

    agent.interrupt();

    expect(types(seen.values)).toEqual(['preCall', 'postCall', 'reply']);
    const reply = seen.values[2];
    expect(reply?.type === 'reply' && reply.msg.metadata['interrupted']).toBe(true);
    expect(seen.complete).toBe(true);
  });

  it('shares the running guard with call()', () => {
    const agent = new Waiter({ name: 'waiter' });
    const streaming = subscribeAndRecord(agent.stream(userMsg('hi')));

    expect(subscribeAndRecord(agent.call(userMsg('again'))).seen.error).toBeInstanceOf(
      AgentBusyError,
    );
    expect(subscribeAndRecord(agent.stream(userMsg('again'))).seen.error).toBeInstanceOf(
      AgentBusyError,
    );

    streaming.subscription.unsubscribe();
    expect(agent.isRunning).toBe(false);
  });

  it('accepts a new call from the handler of the reply event', () => {
    const agent = new Talker(['a']);
    const nested: string[] = [];
    agent.stream(userMsg('one')).subscribe((event) => {
      if (event.type !== 'reply') return;
      agent.call(userMsg('two')).subscribe({
        next: (reply) => nested.push(textOf(reply)),
        error: (error: unknown) => nested.push(String(error)),
      });
    });
    expect(nested).toEqual(['a']);
  });

  it('sends no snapshots to a later call() of the same agent', () => {
    const agent = new Talker(['a']);
    const { seen } = subscribeAndRecord(agent.stream(userMsg('one')));
    const count = seen.values.length;
    subscribeAndRecord(agent.call(userMsg('two')));
    expect(seen.values).toHaveLength(count);
  });

  it('emits a snapshot only once every hook of the event has finished', () => {
    const agent = new Waiter({ name: 'waiter' });
    const gate = new Subject<void>();
    agent.addHook({ onEvent: (event) => (event.type === 'preCall' ? gate : undefined) });
    const { seen } = subscribeAndRecord(agent.stream(userMsg('hi')));
    expect(seen.values).toEqual([]);

    gate.complete();

    expect(types(seen.values)).toEqual(['preCall']);
  });

  describe('with options.events', () => {
    it('emits only the named event types, then the reply', () => {
      const agent = new Talker();
      const { seen } = subscribeAndRecord(
        agent.stream(userMsg('hi'), { events: ['preCall', 'postCall'] }),
      );
      expect(types(seen.values)).toEqual(['preCall', 'postCall', 'reply']);
      expect(seen.complete).toBe(true);
      const last = seen.values.at(-1);
      expect(last?.type === 'reply' && textOf(last.msg)).toBe('Hello there');
    });

    it('tells the call nobody listens to the types it leaves out, unless a hook wants them', () => {
      const quiet = new Talker();
      subscribeAndRecord(quiet.stream(userMsg('hi'), { events: ['postCall'] }));
      expect(quiet.contexts[0]!.listens('reasoningChunk')).toBe(false);
      expect(quiet.contexts[0]!.listens('postCall')).toBe(true);

      const hooked = new Talker();
      const chunks: string[] = [];
      hooked.addHook({
        events: ['reasoningChunk'],
        onEvent: (event) => {
          if (event.type === 'reasoningChunk') chunks.push(event.delta.text ?? '');
        },
      });
      const { seen } = subscribeAndRecord(hooked.stream(userMsg('hi'), { events: ['postCall'] }));
      expect(hooked.contexts[0]!.listens('reasoningChunk')).toBe(true);
      expect(chunks).toEqual(['Hello', ' there']);
      expect(types(seen.values)).toEqual(['postCall', 'reply']);
    });

    it("filters the error event too, and still errors with the call's error", () => {
      const failure = new Error('mid-stream failure');
      const agent = new Talker(['Hel'], failure);
      const { seen } = subscribeAndRecord(agent.stream(userMsg('hi'), { events: ['preCall'] }));
      expect(types(seen.values)).toEqual(['preCall']);
      expect(seen.error).toBe(failure);
      const withError = new Talker(['Hel'], failure);
      const errored = subscribeAndRecord(withError.stream(userMsg('hi'), { events: ['error'] }));
      expect(types(errored.seen.values)).toEqual(['error']);
    });

    it('errors on subscription with a TypeError naming an unknown type, and runs nothing', () => {
      const agent = new Talker();
      const stream = agent.stream(userMsg('hi'), {
        events: ['preCall', 'reasoningChunks' as 'reasoningChunk'],
      });
      expect(agent.contexts).toHaveLength(0);
      const { seen } = subscribeAndRecord(stream);
      expect(seen.error).toBeInstanceOf(TypeError);
      expect(String(seen.error)).toContain('"reasoningChunks"');
      expect(agent.contexts).toHaveLength(0);
      expect(agent.isRunning).toBe(false);
    });

    it('still filters its own events when a follower taps the call for every event', () => {
      const gate = new Subject<void>();
      /** Streams one chunk, waits for the gate, streams another. */
      class Gated extends AgentBase {
        protected doCall(_msgs: Msg[], context: CallContext): Observable<Msg> {
          const chunk = (text: string) =>
            context.notify<ReasoningChunkEvent>({
              type: 'reasoningChunk',
              agent: this,
              delta: { text },
              accumulated: assistantMsg(text, { name: this.name }),
            });
          return concat(
            chunk('a').pipe(toArray()),
            gate.pipe(toArray()),
            defer(() => chunk('b')).pipe(toArray()),
            of(assistantMsg('ab', { name: this.name })),
          ).pipe(
            toArray(),
            map(() => assistantMsg('ab', { name: this.name })),
          );
        }
      }
      const agent = new Gated({ name: 'gated' });
      const { seen } = subscribeAndRecord(agent.stream(userMsg('hi'), { events: ['postCall'] }));
      const tapped: string[] = [];
      expect(tapRunning(agent, (event) => tapped.push(event.type))).toBe(true);
      gate.complete();
      expect(types(seen.values)).toEqual(['postCall', 'reply']);
      expect(tapped).toEqual(['reasoningChunk', 'postCall']);
    });

    it('keeps the other call options checked', () => {
      const { seen } = subscribeAndRecord(
        new Talker().stream(userMsg('hi'), {
          events: ['postCall'],
          bogus: 1,
        } as Parameters<Talker['stream']>[1]),
      );
      expect(seen.error).toBeInstanceOf(TypeError);
      expect(String(seen.error)).toContain('bogus');
    });
  });
});
