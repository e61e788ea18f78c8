import type { JsonObject } from '../json.js';
import { isFrozenJson } from './frozenJson.js';

// Deeper than this the walkers give up (a cycle, or a state too deep to tell quickly) and
// the caller takes the slow, exact path (`assertJsonState` and a JSON round trip).
const MAX_DEPTH = 1000;

/** What a walker returns for a value that is not plain JSON (or too deep to tell). */
const NOT_JSON: unique symbol = Symbol('not JSON');

/**
 * A deep copy of `state` equal to `JSON.parse(JSON.stringify(state))` (properties set to
 * `undefined` dropped, array holes as `null`, `-0` as `0`), made in one walk that also checks
 * it is plain JSON; `undefined` when it is not (a `NaN`, a `Date`, a function, a cycle...) or
 * is nested deeper than 1,000 levels, for the caller to name the problem with
 * `assertJsonState` or copy it the slow way. Strings are shared (they cannot change), and so
 * are deeply frozen objects (`isFrozenJson`: immutable Msgs), so the copy costs a walk of the
 * other objects, not a serialisation of their text.
 */
export function copyJsonState(state: JsonObject): JsonObject | undefined {
  const copy = copyObject(state, 0);
  return copy === NOT_JSON ? undefined : copy;
}

/** Whether `state` is plain JSON (see `copyJsonState`), without copying it. */
export function isJsonState(state: object): boolean {
  return checkValue(state, 0);
}

function copyValue(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? (value === 0 ? 0 : value) : NOT_JSON;
    case 'object':
      if (value === null) return null;
      return Array.isArray(value) ? copyArray(value, depth) : copyObject(value, depth);
    default:
      return NOT_JSON;
  }
}

/**
 * `copyValue` of an array's item, sharing a deeply frozen one: the items of arrays are where
 * a state holds Msgs (memory, a call's input), so only they are checked (a check per object
 * of the state would cost more than the copy of its small objects).
 */
function copyItem(item: unknown, depth: number): unknown {
  return typeof item === 'object' && item !== null && isFrozenJson(item, depth)
    ? item
    : copyValue(item, depth);
}

function copyArray(value: readonly unknown[], depth: number): unknown[] | typeof NOT_JSON {
  if (depth >= MAX_DEPTH) return NOT_JSON;
  const copy = new Array<unknown>(value.length);
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    if (item === undefined) {
      // A hole is `null` in JSON; an element set to `undefined` is not JSON.
      if (i in value) return NOT_JSON;
      copy[i] = null;
      continue;
    }
    const inner = copyItem(item, depth + 1);
    if (inner === NOT_JSON) return NOT_JSON;
    copy[i] = inner;
  }
  return copy;
}

function copyObject(value: object, depth: number): JsonObject | typeof NOT_JSON {
  if (depth >= MAX_DEPTH) return NOT_JSON;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return NOT_JSON;
  const copy: JsonObject = {};
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    if (item === undefined) continue;
    const inner = copyValue(item, depth + 1);
    if (inner === NOT_JSON) return NOT_JSON;
    // `copy.__proto__ = …` would set the prototype; JSON.parse makes it an own property.
    if (key === '__proto__')
      Object.defineProperty(copy, key, {
        value: inner,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else copy[key] = inner as JsonObject[string];
  }
  return copy;
}

function checkValue(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (depth >= MAX_DEPTH) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          if (item === undefined ? i in value : !checkValue(item, depth + 1)) return false;
        }
        return true;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const item = record[key];
        if (item !== undefined && !checkValue(item, depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/**
 * `copyJsonState(state)`, but sharing what is unchanged with `previous`, an earlier such
 * copy that nobody else holds (a session's stored state, never handed out): a subtree equal
 * to the one at the same place in `previous` (same keys in the same order, same values) is
 * `previous`'s own, so a save that changes little allocates little. The result shares no
 * object with `state`; `previous` is not changed.
 */
export function copyJsonStateSharing(
  state: JsonObject,
  previous: JsonObject,
): JsonObject | undefined {
  const copy = shareObject(state, previous, 0);
  return copy === NOT_JSON ? undefined : (copy as JsonObject);
}

/** `copyValue(value)`, or `previous` (or part of it) where equal. */
function shareValue(value: unknown, previous: unknown, depth: number): unknown {
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof previous !== 'object' ||
    previous === null
  )
    return copyValue(value, depth);
  if (Array.isArray(value))
    return Array.isArray(previous) ? shareArray(value, previous, depth) : copyArray(value, depth);
  return Array.isArray(previous) ? copyObject(value, depth) : shareObject(value, previous, depth);
}

function shareArray(
  value: readonly unknown[],
  previous: readonly unknown[],
  depth: number,
): readonly unknown[] | typeof NOT_JSON {
  if (depth >= MAX_DEPTH) return NOT_JSON;
  const length = value.length;
  let copy: unknown[] | undefined = length === previous.length ? undefined : new Array(length);
  for (let i = 0; i < length; i++) {
    const item = value[i];
    let inner: unknown;
    if (item === undefined) {
      if (i in value) return NOT_JSON;
      inner = null;
    } else {
      inner =
        typeof item === 'object' && item !== null && isFrozenJson(item, depth + 1)
          ? item
          : shareValue(item, previous[i], depth + 1);
      if (inner === NOT_JSON) return NOT_JSON;
    }
    if (copy === undefined) {
      if (inner === previous[i]) continue;
      copy = previous.slice(0, i);
    }
    copy[i] = inner;
  }
  if (copy !== undefined && copy.length < length) copy.length = length;
  return copy ?? previous;
}

function shareObject(value: object, previous: object, depth: number): JsonObject | typeof NOT_JSON {
  if (depth >= MAX_DEPTH) return NOT_JSON;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return NOT_JSON;
  const record = value as Record<string, unknown>;
  const before = previous as Record<string, unknown>;
  const names = Object.keys(record);
  const count = names.length;
  // While the properties match `previous`'s, in order (its own, walked without an array of
  // them: it is a plain object this module made), nothing is allocated.
  let at = 0;
  // The copy of the property at `at` when it was made and differs from `previous`'s.
  let inner: unknown;
  let differs = false;
  for (const name in before) {
    while (at < count && record[names[at] as string] === undefined) at++;
    if (at === count || names[at] !== name) {
      differs = true;
      break;
    }
    const earlier = before[name];
    const shared = shareValue(record[name], earlier, depth + 1);
    if (shared === NOT_JSON) return NOT_JSON;
    if (shared !== earlier) {
      inner = shared;
      differs = true;
      break;
    }
    at++;
  }
  if (!differs) {
    while (at < count && record[names[at] as string] === undefined) at++;
    if (at === count) return previous as JsonObject;
  }
  // A copy: `previous`'s values before `at`, `inner` at it (when made), and from there on
  // each value shared with `previous`'s of the same name.
  const copy: JsonObject = {};
  for (let i = 0; i < at; i++) {
    const name = names[i] as string;
    if (record[name] !== undefined) put(copy, name, before[name]);
  }
  for (let i = at; i < count; i++) {
    const name = names[i] as string;
    const item = record[name];
    if (item === undefined) continue;
    let next = i === at ? inner : undefined;
    if (next === undefined) {
      next = shareValue(item, Object.hasOwn(before, name) ? before[name] : undefined, depth + 1);
      if (next === NOT_JSON) return NOT_JSON;
    }
    put(copy, name, next);
  }
  return copy;
}

function put(copy: JsonObject, key: string, value: unknown): void {
  // `copy.__proto__ = …` would set the prototype; JSON.parse makes it an own property.
  if (key === '__proto__')
    Object.defineProperty(copy, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else copy[key] = value as JsonObject[string];
}
