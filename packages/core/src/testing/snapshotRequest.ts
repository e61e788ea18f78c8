import type { ChatRequest } from '../model/chatModel.js';

/**
 * A deep copy of `request`'s data (its `signal` kept as is), so later changes to the
 * caller's messages or tools do not show in what the model recorded. Plain objects and
 * arrays are copied by hand, which allocates only the copy; anything else (dates, maps,
 * typed arrays, class instances, and structures nested deeper than 64 levels, such as a
 * cycle) goes through `structuredClone`, which also throws, as before, on a function. A
 * deeply frozen plain structure (a toolkit's tool schemas) cannot change, so it is kept
 * as it is rather than copied for every request.
 */
export function snapshotRequest(request: ChatRequest): ChatRequest {
  const { signal, ...data } = request;
  const copy = copyPlain(data, 0) as Omit<ChatRequest, 'signal'>;
  return signal ? { ...copy, signal } : copy;
}

const MAX_DEPTH = 64;

function copyPlain(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) {
    return typeof value === 'function' || typeof value === 'symbol'
      ? structuredClone(value)
      : value;
  }
  if (depth >= MAX_DEPTH) return structuredClone(value);
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return structuredClone(value);
    if (isDeeplyFrozen(value)) return value;
    const copy = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = copyPlain(value[i], depth + 1);
    return copy;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  if (isDeeplyFrozen(value)) return value;
  const copy: Record<string, unknown> = {};
  // for…in rather than Object.keys: no array of keys per copied object.
  for (const key in value) {
    if (Object.hasOwn(value, key)) {
      copy[key] = copyPlain((value as Record<string, unknown>)[key], depth + 1);
    }
  }
  return copy;
}

/** Frozen structures already found to hold only frozen plain data and primitives. */
const deeplyFrozen = new WeakSet<object>();

function isDeeplyFrozen(value: object): boolean {
  if (deeplyFrozen.has(value)) return true;
  if (!Object.isFrozen(value) || !holdsOnlyFrozenData(value, 0)) return false;
  deeplyFrozen.add(value);
  return true;
}

function holdsOnlyFrozenData(value: object, depth: number): boolean {
  if (depth >= MAX_DEPTH) return false;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const child = (value as Record<string, unknown>)[key];
    if (typeof child === 'function' || typeof child === 'symbol') return false;
    if (typeof child !== 'object' || child === null || deeplyFrozen.has(child)) continue;
    const proto = Object.getPrototypeOf(child) as unknown;
    const plain = Array.isArray(child)
      ? proto === Array.prototype
      : proto === Object.prototype || proto === null;
    if (!plain || !Object.isFrozen(child) || !holdsOnlyFrozenData(child, depth + 1)) return false;
  }
  return true;
}
