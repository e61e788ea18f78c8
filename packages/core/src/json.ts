/** A value that survives `JSON.stringify` / `JSON.parse` unchanged. */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/** A JSON object: the shape of every state dict and of tool-call arguments. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** Whether `value` is a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Where `value` stops being JSON, or `undefined` when it is JSON all through: the path of the
 * first part that is not (a function, `undefined`, a symbol, a bigint, a number that is not
 * finite, a class instance such as a Date or a Map, or a cycle), with what it is, e.g.
 * `"roles[1] is a function"`. `path` names `value` itself.
 */
export function jsonProblem(value: unknown, path: string): string | undefined {
  return problemAt(value, path, new Set());
}

function problemAt(value: unknown, path: string, seen: Set<object>): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number')
    return Number.isFinite(value) ? undefined : `${path} is ${String(value)}`;
  if (typeof value !== 'object') return `${path} is ${describe(value)}`;
  if (seen.has(value)) return `${path} is a cycle (an object that contains itself)`;
  if (Array.isArray(value)) {
    seen.add(value);
    for (let index = 0; index < value.length; index++) {
      const problem = problemAt(value[index], `${path}[${index}]`, seen);
      if (problem !== undefined) return problem;
    }
    seen.delete(value);
    return undefined;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null)
    return `${path} is a ${(value as object).constructor?.name ?? 'class instance'}, not a plain object`;
  seen.add(value);
  for (const [key, item] of Object.entries(value)) {
    const problem = problemAt(item, `${path}.${key}`, seen);
    if (problem !== undefined) return problem;
  }
  seen.delete(value);
  return undefined;
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'a function';
  return `a ${typeof value}`;
}

/** A deep copy of a JSON object, frozen all through (what a call keeps of its `callContext`). */
export function frozenJson<T extends JsonObject>(value: T): T {
  return deepFreeze(structuredClone(value));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}
