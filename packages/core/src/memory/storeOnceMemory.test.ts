import { describe, expect, it } from 'vitest';
import { userMsg } from '../message/msg.js';
import { InMemoryMemory } from './inMemoryMemory.js';
import { StoreOnceMemory } from './storeOnceMemory.js';

describe('StoreOnceMemory', () => {
  it('skips a Msg whose id is stored or repeated in the same add', () => {
    const memory = new StoreOnceMemory(new InMemoryMemory());
    const a = userMsg('a');
    memory.add([a, a]);
    memory.add(a);
    expect(memory.messages()).toEqual([a]);
  });

  it('stores an id again after delete, clear, replace and loadStateDict forgot it', () => {
    const memory = new StoreOnceMemory(new InMemoryMemory());
    const a = userMsg('a');
    const b = userMsg('b');
    memory.add([a, b]);
    const state = memory.stateDict();
    memory.delete([a.id]);
    memory.add(a);
    expect(memory.messages()).toEqual([b, a]);
    memory.clear();
    memory.add(a);
    memory.replace([b, b]);
    expect(memory.messages()).toEqual([b]);
    memory.add(b);
    memory.loadStateDict(state);
    memory.add([a, b]);
    expect(memory.messages()).toEqual([a, b]);
  });

  it('rebuilds its ids when the wrapped memory changed behind its back', () => {
    const inner = new InMemoryMemory();
    const memory = new StoreOnceMemory(inner);
    const a = userMsg('a');
    memory.add(a);
    inner.clear();
    memory.add(a);
    expect(memory.messages()).toEqual([a]);
  });
});
