import { concat, defer, lastValueFrom, Observable, of, throwError, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { CallAbortedError } from '../errors.js';
import type { HookEvent, HookEventType, ReasoningChunkEvent } from '../hooks/hookEvent.js';
import { assistantMsg, type Msg, userMsg } from '../message/msg.js';
import { textOf } from '../message/readers.js';
import { AgentBase } from './agentBase.js';
import type { CallContext } from './callContext.js';
import type { EventTap, TappedEvent } from './eventTap.js';

/** Streams two words as reasoningChunk events (when anyone listens), then replies with them. */
class Talker extends AgentBase {
  readonly listened: Record<string, boolean>[] = [];
  readonly contexts: CallContext[] = [];

  constructor(readonly failWith?: unknown) {
    super({ name: 'talker' });
  }

  protected doCall(msgs: Msg[], context: CallContext): Observable<Msg> {
    this.contexts.push(context);
    this.listened.push({
      reasoningChunk: context.listens('reasoningChunk'),
      postCall: context.listens('postCall'),
    });
    let text = msgs.map(textOf).join(' ');
    const chunk = (word: string) =>
      defer(() => {
        text += word;
        return this.notify<ReasoningChunkEvent>({
          type: 'reasoningChunk',
          agent: this,
          delta: { text: word },
          accumulated: assistantMsg(text, { name: this.name }),
        }).pipe(toArray());
      });
    const end = defer(() =>
      this.failWith === undefined
        ? of(assistantMsg(text, { name: this.name }))
        : throwError(() => this.failWith),
    );
    return concat(chunk(' one'), chunk(' two'), end) as Observable<Msg>;
  }
}

/** Never replies until its call's signal aborts. */
class Waiter extends AgentBase {
  readonly contexts: CallContext[] = [];

  protected doCall(_msgs: Msg[], context: CallContext): Observable<Msg> {
    this.contexts.push(context);
    return new Observable<Msg>((subscriber) => {
      const onAbort = () => subscriber.error(context.signal.reason);
      context.signal.addEventListener('abort', onAbort);
      return () => context.signal.removeEventListener('abort', onAbort);
    });
  }
}

/** A tap as a class: `onEvent` is called as its method. */
class TypeRecorder implements EventTap {
  readonly #seen: string[] = [];

  constructor(readonly events: readonly HookEventType[]) {}

  onEvent(event: TappedEvent): void {
    this.#seen.push(event.type);
  }

  get seen(): readonly string[] {
    return this.#seen;
  }
}

const types = (events: readonly { type: string }[]) => events.map((event) => event.type);

describe('CallOptions.tap', () => {
  it("gives every hook event of the call, in stream()'s order, and call() still emits the reply", async () => {
    const streamed = await lastValueFrom(new Talker().stream(userMsg('hi')).pipe(toArray()));
    const tapped: string[] = [];
    const reply = await new Talker().reply(userMsg('hi'), {
      tap: (event) => tapped.push(event.type),
    });
    expect(tapped).toEqual(types(streamed).filter((type) => type !== 'reply'));
    expect(tapped).toEqual(['preCall', 'reasoningChunk', 'reasoningChunk', 'postCall']);
    expect(textOf(reply)).toBe('hi one two');
  });

  it('sees what the hooks changed, as the very event they saw: live, not a frozen snapshot', async () => {
    const agent = new Talker();
    const hooked: HookEvent[] = [];
    agent.addHook({
      onEvent: (event) => {
        hooked.push(event);
        if (event.type === 'preCall') event.input = [userMsg('changed')];
        if (event.type === 'postCall') event.reply = assistantMsg('replaced', { name: 'talker' });
      },
    });
    const seen: TappedEvent[] = [];
    const texts: string[] = [];
    const reply = await agent.reply(userMsg('hi'), {
      tap: (event) => {
        seen.push(event);
        if (event.type === 'preCall') texts.push(textOf(event.input[0]!));
        if (event.type === 'postCall') texts.push(textOf(event.reply));
      },
    });
    expect(texts).toEqual(['changed', 'replaced']);
    expect(textOf(reply)).toBe('replaced');
    expect(seen).toHaveLength(hooked.length);
    seen.forEach((event, i) => {
      expect(event).toBe(hooked[i]); // no copy of any kind
      expect(Object.isFrozen(event)).toBe(false);
    });
    // stream() of the same call builds a frozen snapshot per event instead.
    const streamed = await lastValueFrom(new Talker().stream(userMsg('hi')).pipe(toArray()));
    expect(streamed.every((event) => Object.isFrozen(event))).toBe(true);
  });

  it('with events, gets only those types, and the agent builds no others for it', async () => {
    const agent = new Talker();
    const tap = new TypeRecorder(['postCall']);
    await agent.reply('hi', { tap });
    expect(tap.seen).toEqual(['postCall']);
    expect(agent.listened[0]).toEqual({ reasoningChunk: false, postCall: true });
  });

  it('rejects a bad tap with a TypeError naming what is wrong, before anything runs', async () => {
    const agent = new Talker();
    const bad: [unknown, RegExp][] = [
      [42, /options\.tap must be a function .* not a number/],
      [{}, /options\.tap must be .* not an object without an onEvent function/],
      [{ onEvent() {}, event: ['preCall'] }, /unknown key "event"/],
      [{ onEvent() {}, events: 'preCall' }, /options\.events must be an array/],
      [{ onEvent() {}, events: ['preCal'] }, /unknown event type "preCal"/],
    ];
    for (const [tap, message] of bad) {
      await expect(agent.reply('hi', { tap: tap as never })).rejects.toThrow(TypeError);
      await expect(agent.reply('hi', { tap: tap as never })).rejects.toThrow(message);
    }
    expect(agent.contexts).toHaveLength(0);
    expect(agent.isRunning).toBe(false);
  });

  it('a throwing tap fails the call with its error, after the error hooks, and frees the agent', async () => {
    const agent = new Talker();
    const errors: unknown[] = [];
    agent.addHook({
      onEvent: (event) => {
        if (event.type === 'error') errors.push(event.error);
      },
    });
    const boom = new Error('tap broke');
    await expect(
      agent.reply('hi', {
        tap: (event) => {
          if (event.type === 'reasoningChunk') throw boom;
        },
      }),
    ).rejects.toBe(boom);
    expect(errors).toEqual([boom]);
    expect(agent.isRunning).toBe(false);
    expect(textOf(await agent.reply('again'))).toBe('again one two');
  });

  it('a tap that throws on the error event leaves the error the call fails with', async () => {
    const failure = new Error('model down');
    const seen: string[] = [];
    await expect(
      new Talker(failure).reply('hi', {
        tap: (event) => {
          seen.push(event.type);
          if (event.type === 'error') throw new Error('tap broke too');
        },
      }),
    ).rejects.toBe(failure);
    expect(seen).toEqual(['preCall', 'reasoningChunk', 'reasoningChunk', 'error']);
  });

  it('unsubscribing detaches the tap: nothing more reaches it, the agent keeps no reference', () => {
    const agent = new Waiter({ name: 'waiter' });
    const seen: string[] = [];
    const subscription = agent.call('hi', { tap: (event) => seen.push(event.type) }).subscribe();
    const context = agent.contexts[0]!;
    expect(context.listens('postCall')).toBe(true);
    subscription.unsubscribe();
    expect(context.listens('postCall')).toBe(false);
    expect(seen).toEqual(['preCall']);
    expect(agent.isRunning).toBe(false);
  });

  it('aborting the signal gives the tap the error event, then detaches it', async () => {
    const agent = new Waiter({ name: 'waiter' });
    const seen: TappedEvent[] = [];
    const controller = new AbortController();
    const reply = agent.reply('hi', {
      signal: controller.signal,
      tap: (event) => seen.push(event),
    });
    controller.abort();
    await expect(reply).rejects.toBeInstanceOf(CallAbortedError);
    expect(types(seen)).toEqual(['preCall', 'error']);
    expect(seen[1]?.type === 'error' && seen[1].error).toBeInstanceOf(CallAbortedError);
    expect(agent.contexts[0]!.listens('error')).toBe(false);
  });

  it('works beside stream(): the stream gets snapshots, the tap the live events', async () => {
    const tapped: TappedEvent[] = [];
    const streamed = await lastValueFrom(
      new Talker()
        .stream('hi', { events: ['postCall'], tap: (event) => tapped.push(event) })
        .pipe(toArray()),
    );
    expect(types(streamed)).toEqual(['postCall', 'reply']);
    expect(types(tapped)).toEqual(['preCall', 'reasoningChunk', 'reasoningChunk', 'postCall']);
    expect(tapped[3]).not.toBe(streamed[0]);
    expect(tapped[3]).toMatchObject({ type: 'postCall' });
  });
});
