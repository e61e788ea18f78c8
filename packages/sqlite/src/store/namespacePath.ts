import type { Namespace } from '@rxagent/core';

/**
 * A namespace as one column value: each segment percent-encoded (so no segment holds the
 * separator, and NUL or any other character is data) and each followed by `/`. `['a/b']` is
 * `a%2Fb/`, `['a', 'b']` is `a/b/`: never equal. The items under a namespace are the rows
 * whose path starts with its path, found as a range of one index (`>= path`, `< path` with
 * its last `/` raised to `0`), never with LIKE and its wildcards.
 */
export function namespacePath(namespace: Namespace): string {
  let path = '';
  for (const segment of namespace) path += `${encodeURIComponent(segment)}/`;
  return path;
}

/** The namespace a stored path stands for. */
export function namespaceOf(path: string): string[] {
  if (path === '') return [];
  return path.slice(0, -1).split('/').map(decodeURIComponent);
}

/** The end of the range of paths under `path` (exclusive): every encoded path sorts below it. */
export function pathRangeEnd(path: string): string {
  // Encoded paths are ASCII; `/` + 1 is `0`. The root's range is everything: '\u{10FFFF}'.
  return path === '' ? '\u{10FFFF}' : `${path.slice(0, -1)}0`;
}

/**
 * The full-text token of a stored path, as the `nsterm` column computes it in SQL
 * (`'n' || lower(hex(ns))`): the items under `path` are those whose token starts with it, an
 * FTS5 prefix query. Hex keeps the token one run of letters and digits whatever the path
 * holds, and it ends in `2f` (`/`), which no stemming rule changes.
 */
export function namespaceToken(path: string): string {
  return `n${Buffer.from(path, 'utf8').toString('hex')}`;
}
