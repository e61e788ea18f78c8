import { Subscription } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { LiveSubscription } from './liveSubscription.js';

describe('LiveSubscription', () => {
  it('stops what it holds, and what was held beside it, when unsubscribed', () => {
    const stopped: string[] = [];
    const live = new LiveSubscription();
    live.hold(() => stopped.push('first'));
    live.hold(new Subscription(() => stopped.push('second')));
    live.add(() => stopped.push('added'));
    expect(stopped).toEqual([]);
    live.unsubscribe();
    expect(stopped).toEqual(['first', 'second', 'added']);
    live.unsubscribe();
    expect(stopped).toHaveLength(3);
  });

  it('takes the place of a held subscription that has ended, and skips one ended already', () => {
    const stopped: string[] = [];
    const live = new LiveSubscription();
    const first = new Subscription(() => stopped.push('first'));
    live.hold(first);
    first.unsubscribe();
    const ended = new Subscription(() => stopped.push('ended'));
    ended.unsubscribe();
    live.hold(ended);
    live.hold(new Subscription(() => stopped.push('next')));
    live.unsubscribe();
    expect(stopped).toEqual(['first', 'ended', 'next']);
  });

  it('stops at once what is held after it was unsubscribed, or while it unsubscribes', () => {
    const stopped: string[] = [];
    const live = new LiveSubscription();
    live.hold(() => {
      stopped.push('first');
      live.hold(() => stopped.push('during'));
    });
    live.unsubscribe();
    expect(stopped).toEqual(['first', 'during']);
    live.hold(() => stopped.push('after'));
    expect(stopped).toEqual(['first', 'during', 'after']);
  });

  it('still unsubscribes the rest when the held teardown throws', () => {
    const stopped: string[] = [];
    const live = new LiveSubscription();
    live.hold(() => {
      throw new Error('boom');
    });
    live.add(() => stopped.push('added'));
    expect(() => live.unsubscribe()).toThrow('boom');
    expect(stopped).toEqual(['added']);
    expect(live.closed).toBe(true);
  });
});
