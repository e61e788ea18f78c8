import type { ReasoningChunkEvent } from '@rxagent/core';
import type { Subscription } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ChunkRelay, type DispatchingRoom } from './chunkRelay.js';

const chunk = (text: string) =>
  ({ type: 'reasoningChunk', text }) as unknown as ReasoningChunkEvent;
const textOf = (event: ReasoningChunkEvent) => (event as unknown as { text: string }).text;

/** A room whose hook answers each event at once, or later when `hold(text)` says so. */
function room(hold: (text: string) => boolean = () => false) {
  const seen: string[] = [];
  const waiting: (() => void)[] = [];
  const failing: ((error: unknown) => void)[] = [];
  const dispatcher: DispatchingRoom = {
    dispatch<E>(
      event: E,
      done: (event: E) => void,
      fail: (error: unknown) => void,
      live: Subscription,
    ) {
      const text = textOf(event as ReasoningChunkEvent);
      seen.push(text);
      if (!hold(text)) {
        done(event);
        return;
      }
      waiting.push(() => {
        if (!live.closed) done(event);
      });
      failing.push((error) => {
        if (!live.closed) fail(error);
      });
    },
  };
  return {
    dispatcher,
    seen,
    release: () => waiting.shift()?.(),
    failWith: (e: unknown) => failing.shift()?.(e),
  };
}

describe('ChunkRelay', () => {
  it('delivers every event at once, in order, when the hooks are synchronous, then ends', () => {
    const { dispatcher, seen } = room();
    const relay = new ChunkRelay(dispatcher, () => expect.unreachable());
    let ended = 0;
    relay.push([chunk('a'), chunk('b')]);
    relay.push([chunk('c')]);
    relay.end(() => ended++);
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(ended).toBe(1);
  });

  it('keeps the events after an asynchronous hook waiting, and ends only once all were delivered', () => {
    const { dispatcher, seen, release } = room((text) => text === 'b');
    const relay = new ChunkRelay(dispatcher, () => expect.unreachable());
    let ended = 0;
    relay.push([chunk('a'), chunk('b'), chunk('c')]);
    relay.push([chunk('d')]);
    relay.end(() => ended++);
    expect(seen).toEqual(['a', 'b']);
    expect(ended).toBe(0);
    release();
    expect(seen).toEqual(['a', 'b', 'c', 'd']);
    expect(ended).toBe(1);
  });

  it("delivers a long reply's events with a flat stack (no recursion per event)", () => {
    const { dispatcher, seen } = room();
    const relay = new ChunkRelay(dispatcher, () => expect.unreachable());
    const events = Array.from({ length: 100_000 }, (_, i) => chunk(String(i)));
    for (const event of events) relay.push([event]);
    expect(seen).toHaveLength(100_000);
  });

  it('reports the first hook error once, then delivers and ends nothing more', () => {
    const { dispatcher, seen, failWith } = room((text) => text === 'a');
    const errors: unknown[] = [];
    const relay = new ChunkRelay(dispatcher, (error) => errors.push(error));
    let ended = 0;
    relay.push([chunk('a'), chunk('b')]);
    relay.end(() => ended++);
    failWith(new Error('hook failed'));
    relay.push([chunk('c')]);
    relay.end(() => ended++);
    expect(errors).toEqual([new Error('hook failed')]);
    expect(seen).toEqual(['a']);
    expect(ended).toBe(0);
  });

  it('stops once live is unsubscribed: the pending hook is dropped and nothing ends', () => {
    const { dispatcher, seen, release } = room((text) => text === 'a');
    const relay = new ChunkRelay(dispatcher, () => expect.unreachable());
    let ended = 0;
    relay.push([chunk('a'), chunk('b')]);
    relay.end(() => ended++);
    relay.live.unsubscribe();
    release();
    expect(seen).toEqual(['a']);
    expect(ended).toBe(0);
  });
});
