/**
 * Freezes a JSON value and everything it holds, in place, and returns it (what `freezeMsg`
 * does to a Msg): for a value that carries Msgs, such as an agent event decoded from the
 * wire. An object already frozen is not walked again. Parent first: a cycle ends at an
 * object already frozen instead of recursing forever. Typed arrays cannot be frozen (and are
 * not JSON): they are left as they are.
 */
export function freezeJson<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) freezeAll(value);
  return value;
}

/**
 * Freezes `value` (not frozen yet), then what it holds. Children are tested before the call
 * (most fields are strings), and a frozen array is walked by index: V8 leaves its fast path
 * for `for…of` and `Object.keys` on frozen objects, and this runs for every new Msg.
 */
function freezeAll(value: object): void {
  if (ArrayBuffer.isView(value)) return;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'object' && item !== null && !Object.isFrozen(item)) freezeAll(item);
    }
    return;
  }
  for (const key in value) {
    const item: unknown = (value as Record<string, unknown>)[key];
    if (typeof item !== 'object' || item === null || Object.isFrozen(item)) continue;
    if (Object.hasOwn(value, key)) freezeAll(item);
  }
}
