import type { ChatRequest } from '../model/chatModel.js';

/**
 * A deep copy of `request`'s data (its `signal` kept as is), so later changes to the
 * caller's messages or tools do not show in what the model recorded. Plain objects and
 * arrays are copied by hand, which allocates only the copy; anything else (dates, maps,
 * typed arrays, class instances, and structures nested deeper than 64 levels, such as a
 * cycle) goes through `structuredClone`, which also throws, as before, on a function.
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
    const copy = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = copyPlain(value[i], depth + 1);
    return copy;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const copy: Record<string, unknown> = {};
  // for…in rather than Object.keys: no array of keys per copied object.
  for (const key in value) {
    if (Object.hasOwn(value, key)) {
      copy[key] = copyPlain((value as Record<string, unknown>)[key], depth + 1);
    }
  }
  return copy;
}
