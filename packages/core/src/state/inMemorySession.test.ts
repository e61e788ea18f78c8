import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../json.js';
import { InMemorySession } from './inMemorySession.js';

describe('InMemorySession', () => {
  it('keeps what was saved when the saved object is changed afterwards', async () => {
    const session = new InMemorySession();
    const state: JsonObject = { items: ['a'], nested: { n: 1 } };
    await session.save('k', state);
    (state['items'] as string[]).push('b');
    (state['nested'] as JsonObject)['n'] = 2;
    expect(await session.load('k')).toEqual({ items: ['a'], nested: { n: 1 } });
  });

  it('returns a fresh copy on every load', async () => {
    const session = new InMemorySession();
    await session.save('k', { items: ['a'] });
    const first = await session.load('k');
    (first!['items'] as string[]).push('changed');
    expect(await session.load('k')).toEqual({ items: ['a'] });
  });

  it('keeps sessions of different instances apart', async () => {
    const one = new InMemorySession();
    const two = new InMemorySession();
    await one.save('k', { v: 1 });
    expect(await two.load('k')).toBeUndefined();
    expect(await two.list()).toEqual([]);
  });
});
