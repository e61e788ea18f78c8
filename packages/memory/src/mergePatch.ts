import { isJsonObject, type JsonObject, type JsonValue } from '@rxagent/core';

/**
 * Applies a JSON Merge Patch (RFC 7396) to `target` and returns the result, a new value:
 * `target` is never changed. An object patch merges member by member (`null` removes a
 * member, an object recurses, anything else replaces); a patch that is not an object
 * replaces the target whole. A member the patch does not name is kept as it was.
 *
 * @example
 * ```ts
 * mergePatch({ name: 'Ada', city: 'Paris' }, { city: null, diet: 'vegan' });
 * // → { name: 'Ada', diet: 'vegan' }
 * ```
 */
export function mergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isJsonObject(patch)) return patch;
  const base: JsonObject = isJsonObject(target) ? target : {};
  const has = (name: string): boolean => Object.hasOwn(base, name);
  const out: JsonObject = { ...base };
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete out[name];
    // Defined, not assigned: a member named `__proto__` stays a member, never a prototype.
    else
      Object.defineProperty(out, name, {
        value: mergePatch(has(name) ? base[name] : undefined, value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return out;
}
