import type { JsonValue } from '@rxagent/core';

/** The expected texts of a case: a string, or every string of an array; others as JSON. */
export function expectedTexts(expected: JsonValue | undefined): string[] | undefined {
  if (expected === undefined || expected === null) return undefined;
  if (typeof expected === 'string') return [expected];
  if (Array.isArray(expected))
    return expected.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
  return [JSON.stringify(expected)];
}

/** `text` for comparison: trimmed, inner whitespace collapsed, lower-cased unless `caseSensitive`. */
export function normalise(text: string, caseSensitive: boolean): string {
  const collapsed = text.trim().replace(/\s+/g, ' ');
  return caseSensitive ? collapsed : collapsed.toLowerCase();
}
