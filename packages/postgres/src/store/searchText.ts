import { tokenize } from '@rxagent/core';

// PostgreSQL's limits: positions run to 16383, a lexeme keeps at most 256 positions and is
// at most 2047 bytes long (a word longer than 500 characters is cut, which no query meets).
const MAX_POSITION = 16_383;
const MAX_POSITIONS = 256;
const MAX_TERM = 500;

/**
 * The `tsvector` literal of `text`: the terms of core's `tokenize` (the same words, stopwords
 * and plural stemming as `InMemoryStore`), each with its positions. The words are found
 * here, not by the database's text search configuration, so search behaves the same whatever
 * the database's locale (a `C` database does not know that `Ü` is a letter). Terms are
 * runs of letters and digits, so no quoting is needed inside the literal. Internal.
 */
export function tsvectorOf(text: string): string {
  const positions = new Map<string, number[]>();
  tokenize(text).forEach((raw, index) => {
    const term = raw.slice(0, MAX_TERM);
    let list = positions.get(term);
    if (list === undefined) {
      list = [];
      positions.set(term, list);
    }
    if (list.length < MAX_POSITIONS) list.push(Math.min(index + 1, MAX_POSITION));
  });
  return [...positions].map(([term, at]) => `'${term}':${at.join(',')}`).join(' ');
}
