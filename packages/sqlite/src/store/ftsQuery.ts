// Runs of letters and digits of any script: everything else separates words.
const SEPARATORS = /[^\p{L}\p{N}]+/u;

/**
 * The FTS5 query for a query of words: each word quoted (a string, never an operator: `AND`,
 * `NEAR`, `*`, `:`, `"` and parentheses are data or separators), joined by OR, so items
 * holding any of them match. `undefined` when the query holds no word.
 */
export function ftsQuery(query: string): string | undefined {
  const words = [
    ...new Set(
      query
        .toLowerCase()
        .split(SEPARATORS)
        .filter((word) => word !== ''),
    ),
  ];
  if (words.length === 0) return undefined;
  return words.map((word) => `"${word}"`).join(' OR ');
}
