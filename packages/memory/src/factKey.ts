import { createHash } from 'node:crypto';

/**
 * The key of a fact made from its text: the same fact (ignoring case and spacing) always
 * gets the same key, so a write repeated after a crash replaces rather than duplicates.
 */
export function factKey(text: string): string {
  const normal = text.trim().replace(/\s+/gu, ' ').toLowerCase();
  return `fact-${createHash('sha256').update(normal).digest('hex').slice(0, 16)}`;
}
