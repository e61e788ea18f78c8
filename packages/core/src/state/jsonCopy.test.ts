import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../json.js';
import { isFrozenJson } from './frozenJson.js';
import { copyJsonState, copyJsonStateSharing, isJsonState } from './jsonCopy.js';

/** What a JSON file gives back for `value`. */
const roundTrip = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

/** Every object and array reachable from `value`. */
function objectsOf(value: unknown, into = new Set<object>()): Set<object> {
  if (typeof value === 'object' && value !== null) {
    into.add(value);
    for (const item of Object.values(value)) objectsOf(item, into);
  }
  return into;
}

// A small deterministic generator of JSON states (and of the values JSON drops or rejects).
function randomState(seed: number): JsonObject {
  let s = seed;
  const next = () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 2 ** 32;
  };
  const value = (depth: number): unknown => {
    const r = next();
    if (depth > 3 || r < 0.3) {
      const leaves = ['text', 'x'.repeat(50), 0, -0, 1.5, -7, true, false, null, '', 'é\u{1F600}'];
      return leaves[Math.floor(next() * leaves.length)];
    }
    if (r < 0.6) return Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1));
    const object: Record<string, unknown> = {};
    for (let i = 0; i < Math.floor(next() * 5); i++) {
      object[['a', 'b', '2', '10', 'messages', 'x y'][Math.floor(next() * 6)] as string] =
        next() < 0.1 ? undefined : value(depth + 1);
    }
    return object;
  };
  return { root: value(0) } as JsonObject;
}

describe('copyJsonState', () => {
  it('gives what a JSON round trip gives, for many random states', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const state = randomState(seed);
      expect(copyJsonState(state)).toStrictEqual(roundTrip(state));
      expect(isJsonState(state)).toBe(true);
    }
  });

  it('drops undefined properties, turns holes into null and -0 into 0', () => {
    const holes: number[] = new Array(3);
    holes[0] = 1;
    holes[2] = 3;
    const state = {
      gone: undefined,
      holes,
      zero: -0,
      list: [-0],
    } as unknown as JsonObject;
    const copy = copyJsonState(state);
    expect(copy).toStrictEqual(roundTrip(state));
    expect(Object.is(copy?.['zero'], 0)).toBe(true);
    expect('gone' in (copy as object)).toBe(false);
  });

  it('keeps a "__proto__" key as an own property, as JSON.parse does', () => {
    const state = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as JsonObject;
    const copy = copyJsonState(state) as JsonObject;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect(copy).toStrictEqual(roundTrip(state));
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('copies objects with a null prototype as plain objects', () => {
    const inner = Object.assign(Object.create(null) as object, { a: 1 });
    const copy = copyJsonState({ inner } as unknown as JsonObject) as JsonObject;
    expect(Object.getPrototypeOf(copy['inner'])).toBe(Object.prototype);
    expect(copy).toEqual({ inner: { a: 1 } });
  });

  it('shares no object or array with the state it copies', () => {
    const state = randomState(42);
    const mine = objectsOf(state);
    for (const object of objectsOf(copyJsonState(state))) expect(mine.has(object)).toBe(false);
  });

  it.each([
    ['NaN', { n: Number.NaN }],
    ['Infinity', { n: [Number.POSITIVE_INFINITY] }],
    ['a Date', { at: new Date(0) }],
    ['a Map', { m: new Map() }],
    ['a function', { f: () => 1 }],
    ['a bigint', { b: 1n }],
    ['a symbol', { s: Symbol('s') }],
    ['undefined in an array', { list: [1, undefined] }],
  ])('is undefined (not JSON) for %s', (_, state) => {
    expect(copyJsonState(state as unknown as JsonObject)).toBeUndefined();
    expect(isJsonState(state)).toBe(false);
  });

  it('is undefined for a cycle and for a state nested deeper than it walks', () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = { back: cycle };
    expect(copyJsonState(cycle as JsonObject)).toBeUndefined();
    expect(isJsonState(cycle)).toBe(false);
    let deep: JsonObject = { leaf: true };
    for (let i = 0; i < 1500; i++) deep = { deep };
    expect(copyJsonState(deep)).toBeUndefined();
    expect(isJsonState(deep)).toBe(false);
  });
});

describe('copyJsonStateSharing', () => {
  it('gives what a JSON round trip gives, whatever the previous copy, and leaves that unchanged', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const state = randomState(seed);
      // Against an unrelated copy, a copy of the same state, and one of a neighbour seed.
      for (const other of [randomState(seed + 1), state, randomState(seed * 7)]) {
        const previous = copyJsonState(other) as JsonObject;
        const before = structuredClone(previous);
        expect(copyJsonStateSharing(state, previous)).toStrictEqual(roundTrip(state));
        expect(previous).toStrictEqual(before);
      }
    }
  });

  it('shares the unchanged subtrees of the previous copy, and no object of the state', () => {
    const message = (id: string) => ({ id, content: [{ type: 'text', text: `text ${id}` }] });
    const state = { memory: { messages: [message('a'), message('b')] }, progress: { step: 1 } };
    const previous = copyJsonState(state) as JsonObject;
    state.memory.messages.push(message('c'));
    state.progress.step = 2;
    const copy = copyJsonStateSharing(state, previous) as typeof state & JsonObject;
    const before = previous as unknown as typeof state;
    expect(copy).toStrictEqual(roundTrip(state));
    // The unchanged messages are the previous copy's own; what changed is new.
    expect(copy.memory.messages[0]).toBe(before.memory.messages[0]);
    expect(copy.memory.messages[1]).toBe(before.memory.messages[1]);
    expect(copy.memory.messages).not.toBe(before.memory.messages);
    expect(copy.progress).not.toBe(before.progress);
    const mine = objectsOf(state);
    for (const object of objectsOf(copy)) expect(mine.has(object)).toBe(false);
    // Nothing changed at all: the previous copy itself.
    expect(copyJsonStateSharing(roundTrip(copy) as JsonObject, copy)).toBe(copy);
  });

  it('keeps the order of the keys, and a "__proto__" key as an own property', () => {
    const previous = copyJsonState({ a: 1, b: { c: 2 } }) as JsonObject;
    const swapped = copyJsonStateSharing({ b: { c: 2 }, a: 1 }, previous) as JsonObject;
    expect(Object.keys(swapped)).toEqual(['b', 'a']);
    expect(swapped).toStrictEqual({ b: { c: 2 }, a: 1 });
    // After a difference (a value, or a name), the rest is still shared by name.
    const changed = copyJsonStateSharing({ a: 2, b: { c: 2 } }, previous) as JsonObject;
    expect(changed).toStrictEqual({ a: 2, b: { c: 2 } });
    expect(changed['b']).toBe(previous['b']);
    const renamed = copyJsonStateSharing(
      { a: 1, d: { c: 3 }, b: { c: 2 } },
      previous,
    ) as JsonObject;
    expect(renamed).toStrictEqual({ a: 1, d: { c: 3 }, b: { c: 2 } });
    expect(Object.keys(renamed)).toEqual(['a', 'd', 'b']);
    expect(renamed['b']).toBe(previous['b']);
    const more = copyJsonStateSharing({ a: 1, b: { c: 2 }, e: [1] }, previous) as JsonObject;
    expect(more).toStrictEqual({ a: 1, b: { c: 2 }, e: [1] });
    const fewer = copyJsonStateSharing({ a: 1, b: undefined } as unknown as JsonObject, previous);
    expect(fewer).toStrictEqual({ a: 1 });
    const proto = JSON.parse('{"__proto__": {"x": 1}, "a": 1}') as JsonObject;
    const withProto = copyJsonStateSharing(proto, previous) as JsonObject;
    expect(Object.getPrototypeOf(withProto)).toBe(Object.prototype);
    expect(withProto).toStrictEqual(roundTrip(proto));
  });

  it('turns holes into null and -0 into 0 against a previous copy, and is undefined for what JSON cannot hold', () => {
    const previous = copyJsonState({ list: [null, 0, 1] }) as JsonObject;
    // biome-ignore lint/suspicious/noSparseArray: a hole is what this checks
    const holes = copyJsonStateSharing({ list: [, -0, 1] } as unknown as JsonObject, previous);
    expect(holes).toBe(previous);
    expect(copyJsonStateSharing({ list: [1, Number.NaN] }, previous)).toBeUndefined();
    expect(
      copyJsonStateSharing({ list: [new Date(0)] } as unknown as JsonObject, previous),
    ).toBeUndefined();
  });
});

describe('deeply frozen values (immutable Msgs)', () => {
  const deepFreeze = <T>(value: T): T => {
    if (typeof value === 'object' && value !== null) {
      for (const item of Object.values(value)) deepFreeze(item);
      Object.freeze(value);
    }
    return value;
  };
  const msg = () =>
    deepFreeze({ id: 'm1', role: 'user', content: [{ type: 'text', text: 'hi' }], metadata: {} });

  it('shares a deeply frozen object instead of copying it, in both copies', () => {
    const frozen = msg();
    const state: JsonObject = { memory: { messages: [frozen] } };
    const copy = copyJsonState(state)!;
    expect(copy).toEqual(roundTrip(state));
    expect((copy['memory'] as { messages: unknown[] }).messages[0]).toBe(frozen);
    expect(copy['memory']).not.toBe(state['memory']);
    const other = msg();
    const shared = copyJsonStateSharing({ memory: { messages: [frozen, other] } }, copy)!;
    const messages = (shared['memory'] as { messages: unknown[] }).messages;
    expect(messages[0]).toBe(frozen);
    expect(messages[1]).toBe(other);
  });

  it('copies what is frozen only on the surface, or holds what a JSON round trip changes', () => {
    const shallow = Object.freeze({ id: 'm1', content: [{ text: 'hi' }] });
    expect(isFrozenJson(shallow)).toBe(false);
    const copy = copyJsonState({ m: shallow as unknown as JsonObject })!;
    expect(copy['m']).not.toBe(shallow);
    expect(copy['m']).toEqual(shallow);
    // biome-ignore lint/suspicious/noSparseArray: a hole, which JSON turns into null
    for (const odd of [{ n: -0 }, { u: undefined }, [1, , 2], { d: new Date(0) }]) {
      expect(isFrozenJson(deepFreeze(odd))).toBe(false);
      const state = { odd } as unknown as JsonObject;
      const made = copyJsonState(state);
      if (made !== undefined) expect(made).toEqual(roundTrip(state));
    }
    expect(isFrozenJson(msg())).toBe(true);
    expect(isFrozenJson({ id: 'plain' })).toBe(false);
  });
});
