import { InvalidArgumentError } from '../errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../json.js';
import { checkOptions } from '../options/checkOptions.js';
import { assertJsonState, assertSessionKey } from '../state/session.js';
import { checkExpectedVersion } from '../state/versionedSession.js';
import type { Namespace, PutOptions, SearchOptions } from './memoryStore.js';

/** The default `limit` of `MemoryStore.search`. */
export const DEFAULT_SEARCH_LIMIT = 10;

/**
 * Throws `InvalidArgumentError` unless `namespace` is an array of non-empty, well-formed
 * strings (the empty array is the root: every item is under it). For store implementations.
 */
export function assertNamespace(
  namespace: unknown,
  method: string,
): asserts namespace is Namespace {
  if (!Array.isArray(namespace)) {
    throw new InvalidArgumentError(
      `${method}: the namespace must be an array of strings, such as ['users', 'alice'] (got ${typeof namespace}).`,
    );
  }
  for (const [index, segment] of namespace.entries()) {
    if (typeof segment !== 'string' || segment === '') {
      throw new InvalidArgumentError(
        `${method}: namespace[${index}] must be a non-empty string (got ${JSON.stringify(segment) ?? typeof segment}).`,
      );
    }
    assertSessionKey(segment, `${method} namespace[${index}]`);
  }
}

/**
 * Checks the arguments of `MemoryStore.put` before any side effect: namespace, key (a
 * non-empty, well-formed string), value (a JSON object), `text` and `expectedVersion`.
 */
export function checkPut(
  namespace: unknown,
  key: unknown,
  value: unknown,
  options: PutOptions | undefined,
  method: string,
): void {
  assertNamespace(namespace, method);
  assertSessionKey(key, method);
  assertJsonState(value, method);
  checkOptions(options, ['text', 'expectedVersion'], method);
  if (options?.text !== undefined && typeof options.text !== 'string') {
    throw new InvalidArgumentError(
      `${method}: text must be a string (got ${typeof options.text}).`,
    );
  }
  checkExpectedVersion(options, method);
}

/** Checks `MemoryStore.search` options; resolves the limit. */
export function checkSearch(
  namespace: unknown,
  options: SearchOptions | undefined,
  method: string,
): number {
  assertNamespace(namespace, method);
  checkOptions(options, ['query', 'filter', 'limit', 'signal'], method);
  const { query, filter, limit = DEFAULT_SEARCH_LIMIT } = options ?? {};
  if (query !== undefined && typeof query !== 'string') {
    throw new InvalidArgumentError(`${method}: query must be a string (got ${typeof query}).`);
  }
  if (filter !== undefined) assertJsonState(filter, `${method} filter`);
  if (!Number.isInteger(limit) || limit < 1) {
    throw new InvalidArgumentError(
      `${method}: limit must be a whole number ≥ 1 (got ${String(limit)}).`,
    );
  }
  return limit;
}

/** The text search indexes for `value` by default: its strings (nested ones too), joined. */
export function valueText(value: JsonValue): string {
  const parts: string[] = [];
  const walk = (node: JsonValue): void => {
    if (typeof node === 'string') parts.push(node);
    else if (Array.isArray(node)) for (const item of node) walk(item);
    else if (isJsonObject(node)) for (const item of Object.values(node)) walk(item);
  };
  walk(value);
  return parts.join('\n');
}

/** Whether every field of `filter` equals (as JSON) the same top-level field of `value`. */
export function matchesFilter(value: JsonObject, filter: JsonObject | undefined): boolean {
  if (filter === undefined) return true;
  for (const [name, wanted] of Object.entries(filter)) {
    if (!Object.hasOwn(value, name) || !jsonEqual(value[name] as JsonValue, wanted)) return false;
  }
  return true;
}

/** Deep equality of two JSON values (object key order does not matter). */
export function jsonEqual(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return (
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, i) => jsonEqual(item, b[i] as JsonValue))
    );
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k] as JsonValue, b[k] as JsonValue))
    );
  }
  return false;
}

/** Whether `namespace` is `prefix` or lies under it (segment by segment, never by text). */
export function isUnderNamespace(namespace: Namespace, prefix: Namespace): boolean {
  if (namespace.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (namespace[i] !== prefix[i]) return false;
  return true;
}
