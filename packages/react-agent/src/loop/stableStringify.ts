import type { JsonValue } from '@rxagent/core';

/** JSON text with object keys sorted, so equal values give equal strings (dedupe keys). */
export function stableStringify(value: JsonValue | undefined): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${stableStringify(value[key])}`).join(',')}}`;
}
