import { isStopword } from '@rxagent/core';

// Runs of letters and digits of any script: everything else separates words.
const SEPARATORS = /[^\p{L}\p{N}]+/u;

/**
 * The FTS5 query for a query of words: each word quoted (a string, never an operator: `AND`,
 * `NEAR`, `*`, `:`, `"` and parentheses are data or separators), joined by OR, so items
 * holding any of them match, and limited to the `text` column. Stopwords (`the`, `what`, …)
 * are dropped, as every store drops them. `undefined` when the query holds no other word.
 */
export function ftsQuery(query: string): string | undefined {
  const words = [
    ...new Set(
      query
        .toLowerCase()
        .split(SEPARATORS)
        .filter((word) => word !== '' && !isStopword(word)),
    ),
  ];
  if (words.length === 0) return undefined;
  return `text : (${words.map((word) => `"${word}"`).join(' OR ')})`;
}

/**
 * `words` (from {@link ftsQuery}) within the items whose namespace token starts with `token`
 * (a namespace and everything under it): one query, so FTS5 ranks only those items.
 */
export function ftsQueryUnder(words: string, token: string): string {
  return `nsterm : ${token}* AND ${words}`;
}
