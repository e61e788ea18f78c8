// Deeper than this the check gives up (the value is then copied, which takes the exact path).
const MAX_DEPTH = 1000;

/**
 * Objects and arrays known to be deeply frozen plain JSON (every nested object and array
 * frozen too, no `undefined`, hole or `-0`, which a JSON round trip would change): a copy
 * shares them instead of copying them, as nothing can change them (immutable Msgs, and the
 * session's own states once frozen). Each is checked once.
 */
const frozenJson = new WeakSet<object>();

/** Whether `value` is deeply frozen plain JSON (see `frozenJson`), checked once per object. */
export function isFrozenJson(value: object, depth = 0): boolean {
  if (!Object.isFrozen(value)) return false;
  if (frozenJson.has(value)) return true;
  if (depth >= MAX_DEPTH || !frozenItems(value, depth)) return false;
  frozenJson.add(value);
  return true;
}

function frozenItems(value: object, depth: number): boolean {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (!(i in value) || !frozenItem(value[i], depth)) return false;
    }
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) if (!frozenItem(record[key], depth)) return false;
  return true;
}

function frozenItem(item: unknown, depth: number): boolean {
  switch (typeof item) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(item) && !Object.is(item, -0);
    case 'object':
      return item === null || isFrozenJson(item, depth + 1);
    default:
      return false;
  }
}
