import type { JsonValue } from '@rxagent/core';

/** The expected texts of a case: a string, or every string of an array; others as JSON. */
export function expectedTexts(expected: JsonValue | undefined): string[] | undefined {
  if (expected === undefined || expected === null) return undefined;
  if (typeof expected === 'string') return [expected];
  if (Array.isArray(expected))
    return expected.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
  return [JSON.stringify(expected)];
}

/** A run of two or more whitespace characters, or one that is not a plain space. */
const UNCOLLAPSED = /\s\s|[^\S ]/;

/** `text` for comparison: trimmed, inner whitespace collapsed, lower-cased unless `caseSensitive`. */
export function normalise(text: string, caseSensitive: boolean): string {
  const trimmed = text.trim();
  // Most texts have single spaces only: then there is nothing to collapse, and no new string.
  const collapsed = UNCOLLAPSED.test(trimmed) ? trimmed.replace(/\s+/g, ' ') : trimmed;
  return caseSensitive ? collapsed : collapsed.toLowerCase();
}
