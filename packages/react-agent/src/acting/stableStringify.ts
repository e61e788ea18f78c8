import type { JsonValue } from '@rxagent/core';

/**
 * JSON text with object keys sorted, so equal values give equal strings (dedupe keys),
 * after `prefix`. Written into one array joined once, so the result is a single flat
 * string: built with `+` or template literals it would be a tree of concatenations, several
 * times its length in bytes, and dedupe keys live as long as their agent call.
 */
export function stableStringify(value: JsonValue | undefined, prefix = ''): string {
  const parts = [prefix];
  write(value, parts);
  return parts.join('');
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
