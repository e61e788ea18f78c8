import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../json.js';
import { InMemorySession } from './inMemorySession.js';

describe('InMemorySession', () => {
  let saved = new InMemorySession();
  const session = () => {
    saved = new InMemorySession();
    return saved;
  };

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

  it('keeps what was saved when objects deep inside the saved state change afterwards', async () => {
    // The copy shares only strings with what was saved: no object or array at any depth.
    const block = { type: 'text', text: 'hello' };
    const msg = { id: 'm1', content: [block], metadata: {} as JsonObject };
    const state: JsonObject = { memory: { messages: [msg] } } as unknown as JsonObject;
    await session().save('k', state);
    block.text = 'changed';
    msg.content.push({ type: 'text', text: 'added' });
    msg.metadata['x'] = 1;
    expect(await saved.load('k')).toEqual({
      memory: {
        messages: [{ id: 'm1', content: [{ type: 'text', text: 'hello' }], metadata: {} }],
      },
    });
  });

  it('hands out loads that share no object with each other', async () => {
    await session().save('k', { memory: { messages: [{ content: [{ text: 'a' }] }] } });
    const first = (await saved.load('k')) as {
      memory: { messages: { content: { text: string }[] }[] };
    };
    first.memory.messages[0]!.content[0]!.text = 'changed';
    first.memory.messages.push({ content: [] });
    expect(await saved.load('k')).toEqual({ memory: { messages: [{ content: [{ text: 'a' }] }] } });
  });

  it('saves a state nested deeper than the quick copy walks, and loads it back', async () => {
    let deep: JsonObject = { leaf: [1, 2] };
    for (let i = 0; i < 1200; i++) deep = { deep };
    await session().save('k', deep);
    expect(await saved.load('k')).toEqual(JSON.parse(JSON.stringify(deep)));
  });

  it('rejects a state JSON cannot hold, naming where, and keeps the old state', async () => {
    await session().save('k', { v: 1 });
    await expect(
      saved.save('k', { list: [{ at: new Date(0) }] } as unknown as JsonObject),
    ).rejects.toThrow(/state\.list\[0\]\.at is a Date/);
    expect(await saved.load('k')).toEqual({ v: 1 });
  });

  it('keeps sessions of different instances apart', async () => {
    const one = new InMemorySession();
    const two = new InMemorySession();
    await one.save('k', { v: 1 });
    expect(await two.load('k')).toBeUndefined();
    expect(await two.list()).toEqual([]);
  });

  it('keeps every save isolated both ways when a save shares the unchanged part of the last one', async () => {
    const session = new InMemorySession();
    const messages: JsonObject[] = [{ id: 'a', content: [{ text: 'first' }] }];
    const state = (): JsonObject => ({ memory: { messages }, step: messages.length });
    await session.save('k', state());
    messages.push({ id: 'b', content: [{ text: 'second' }] });
    await session.save('k', state());
    // Changing what was saved, deep inside and in the part both saves had, changes nothing.
    ((messages[0] as JsonObject)['content'] as JsonObject[])[0] = { text: 'changed' };
    messages.push({ id: 'c', content: [] });
    const want = {
      memory: {
        messages: [
          { id: 'a', content: [{ text: 'first' }] },
          { id: 'b', content: [{ text: 'second' }] },
        ],
      },
      step: 2,
    };
    expect(await session.load('k')).toStrictEqual(want);
    // Changing a load (also its part the stored saves shared) changes neither the store...
    const loaded = (await session.load('k')) as typeof want;
    loaded.memory.messages[0]!.content[0]!.text = 'loaded and changed';
    expect(await session.load('k')).toStrictEqual(want);
    // ...nor the next save of what was changed in place: it is saved as it is now.
    await session.save('k', state());
    const now = (await session.load('k')) as typeof want;
    expect(now.memory.messages[0]!.content[0]!.text).toBe('changed');
    expect(now.memory.messages).toHaveLength(3);
  });
});
