import { InvalidArgumentError } from '../errors.js';
import type { JsonObject } from '../json.js';
import { isJsonState } from './jsonCopy.js';

/**
 * A store of agent state dicts by key: one conversation, user or run per key. Every method
 * returns a Promise; implementations validate the key and the state before any side effect.
 *
 * @example
 * ```ts
 * const session: Session = new JsonFileSession('./sessions');
 * await session.save('alice', agent.stateDict());
 * const saved = await session.load('alice');
 * if (saved) fresh.loadStateDict(saved);
 * ```
 */
export interface Session {
  /** Stores a copy of `state` under `key`, replacing what was there. */
  save(key: string, state: JsonObject): Promise<void>;
  /** The state saved under `key`, as a fresh object, or `undefined` when there is none. */
  load(key: string): Promise<JsonObject | undefined>;
  /** Forgets `key`; a key that was never saved is not an error. */
  delete(key: string): Promise<void>;
  /** Every saved key, sorted. */
  list(): Promise<string[]>;
}

// An unpaired surrogate cannot be encoded as UTF-8, so two such keys would share one file.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Throws `InvalidArgumentError` unless `key` is a non-empty, well-formed string. */
export function assertSessionKey(key: unknown, method: string): asserts key is string {
  if (typeof key !== 'string' || key === '') {
    throw new InvalidArgumentError(
      `${method}: the key must be a non-empty string (got ${describe(key)}); use an id such as a user or conversation id.`,
    );
  }
  if (LONE_SURROGATE.test(key)) {
    throw new InvalidArgumentError(
      `${method}: the key ${JSON.stringify(key)} contains an unpaired UTF-16 surrogate; use a well-formed string.`,
    );
  }
}

/**
 * Throws `InvalidArgumentError` unless `state` is a JSON object that survives
 * `JSON.stringify` / `JSON.parse` unchanged, naming the first value that would not
 * (`NaN`, a `Date`, a function, a cycle...). Properties set to `undefined` are allowed: JSON
 * drops them, as a state dict with the property absent means the same.
 */
export function assertJsonState(state: unknown, method: string): asserts state is JsonObject {
  // The quick check first; the walk that names the problem (and builds every path) only
  // when it fails.
  if (typeof state === 'object' && state !== null && !Array.isArray(state) && isJsonState(state))
    return;
  const problem =
    typeof state === 'object' && state !== null && !Array.isArray(state)
      ? findNonJson(state, 'state', new Set())
      : `state is ${describe(state)}, not a JSON object`;
  if (problem !== undefined) {
    throw new InvalidArgumentError(
      `${method}: ${problem}; a state dict must be plain JSON (save agent.stateDict()).`,
    );
  }
}

function findNonJson(value: unknown, path: string, ancestors: Set<object>): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${path} is ${value}, which JSON cannot hold`;
    case 'object':
      return value === null ? undefined : findNonJsonIn(value, path, ancestors);
    default:
      return `${path} is ${describe(value)}, which JSON cannot hold`;
  }
}

function findNonJsonIn(value: object, path: string, ancestors: Set<object>): string | undefined {
  if (ancestors.has(value)) return `${path} refers back to one of its parents (a cycle)`;
  const isArray = Array.isArray(value);
  if (!isArray) {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null)
      return `${path} is ${describe(value)}, not a plain object`;
  }
  ancestors.add(value);
  try {
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined && !isArray) continue;
      const problem = findNonJson(item, isArray ? `${path}[${key}]` : `${path}.${key}`, ancestors);
      if (problem !== undefined) return problem;
    }
    return undefined;
  } finally {
    ancestors.delete(value);
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `a ${value.constructor?.name ?? 'object'}`;
  if (typeof value === 'string') return JSON.stringify(value);
  return typeof value === 'bigint' || typeof value === 'symbol' || typeof value === 'function'
    ? `a ${typeof value}`
    : String(value);
}
