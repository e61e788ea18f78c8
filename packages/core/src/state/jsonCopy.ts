import type { JsonObject } from '../json.js';

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
 * `assertJsonState` or copy it the slow way. Strings are shared (they cannot change), so the
 * copy costs a walk of the objects, not a serialisation of their text.
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
    const inner = copyValue(item, depth + 1);
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
