/**
 * Freezes a JSON value and everything it holds, in place, and returns it (what `freezeMsg`
 * does to a Msg): for a value that carries Msgs, such as an agent event decoded from the
 * wire. An object already frozen is not walked again. Parent first: a cycle ends at an
 * object already frozen instead of recursing forever. Typed arrays cannot be frozen (and are
 * not JSON): they are left as they are.
 */
export function freezeJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  if (ArrayBuffer.isView(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (const item of value) freezeJson(item);
  } else {
    for (const key of Object.keys(value)) freezeJson((value as Record<string, unknown>)[key]);
  }
  return value;
}
