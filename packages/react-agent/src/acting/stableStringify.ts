import type { JsonValue } from '@rxagent/core';

/**
 * JSON text with object keys sorted, so equal values give equal strings (dedupe keys),
 * after `prefix`. Written into one array joined once, so the result is a single flat
 * string: built with `+` or template literals it would be a tree of concatenations, several
 * times its length in bytes, and dedupe keys live as long as their agent call.
 */
export function stableStringify(value: JsonValue | undefined, prefix = ''): string {
  if (writtenAsIs(value, 0)) {
    // Already in key order (most tool arguments): what JSON.stringify writes, made flat by
    // reading one character of the concatenation.
    const text = prefix + JSON.stringify(value);
    text.charCodeAt(0);
    return text;
  }
  const parts = [prefix];
  write(value, parts);
  return parts.join('');
}

/** How deep `writtenAsIs` looks before leaving a value to `write`. */
const AS_IS_DEPTH = 16;

/**
 * Whether `JSON.stringify(value)` is what `write` would write: plain objects whose keys are
 * in sorted order (at every depth), arrays without holes, strings, finite numbers, booleans
 * and null only.
 */
function writtenAsIs(value: unknown, depth: number): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || depth >= AS_IS_DEPTH) return false;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (let i = 0; i < value.length; i++) {
      if (!(i in value) || !writtenAsIs(value[i], depth + 1)) return false;
    }
    return true;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  let previous: string | undefined;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) return false;
    if (previous !== undefined && !(previous < key)) return false;
    if (!writtenAsIs((value as Record<string, unknown>)[key], depth + 1)) return false;
    previous = key;
  }
  return true;
}

function write(value: JsonValue | undefined, parts: string[]): void {
  if (value === null || typeof value !== 'object') {
    parts.push(JSON.stringify(value) ?? 'undefined');
  } else if (Array.isArray(value)) {
    parts.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) parts.push(',');
      write(value[i], parts);
    }
    parts.push(']');
  } else {
    parts.push('{');
    const keys = Object.keys(value).sort();
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (i > 0) parts.push(',');
      parts.push(JSON.stringify(key), ':');
      write(value[key], parts);
    }
    parts.push('}');
  }
}
