/**
 * Okapi BM25 over tokenised documents. For each query term t in document d:
 *
 *   idf(t)   = ln(1 + (N - n(t) + 0.5) / (n(t) + 0.5))
 *   score(d) = Σ idf(t) · tf(t, d) · (k1 + 1) / (tf(t, d) + k1 · (1 - b + b · |d| / avgdl))
 *
 * tf saturates (k1) so repeating a word does not win by itself, and b normalises for length,
 * so a long document mentioning everything does not beat a short one about the query.
 */

/** Words too common to tell documents apart. */
const STOPWORDS = new Set(
  'a an and are as at be by for from has have how in is it its of on or the this to was what when which who will with'.split(
    ' ',
  ),
);

/**
 * Whether `word` (lower-cased) is a stopword: too common to tell documents apart, so
 * `tokenize` drops it, and no store searches for it (a query of only stopwords finds nothing).
 */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

// Letters and digits of any script: a word is a run of them, everything else separates.
const SEPARATORS = /[^\p{L}\p{N}]+/u;

/**
 * Lower-cased terms (runs of letters and digits of any script) without stopwords, with a
 * light plural stemmer (`rules` → `rule`) so a query and a document need not agree on
 * number. Punctuation and operators (`"`, `*`, `AND`, `-`) are separators or plain words:
 * nothing is a query language, so no text makes it throw.
 */
export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .split(SEPARATORS)
    .filter((term) => term !== '' && !STOPWORDS.has(term))
    .map((term) =>
      term.length > 3 && term.endsWith('s') && !term.endsWith('ss') ? term.slice(0, -1) : term,
    );
}

/** A ranked hit of {@link Bm25Index.search}. */
export interface Bm25Hit {
  readonly id: string;
  readonly score: number;
}

/**
 * A document for {@link Bm25Index}: its id and its text, or its terms already tokenised
 * (`tokenize(text)`, kept by a store that indexes each item once).
 */
export type Bm25Document =
  | { readonly id: string; readonly text: string }
  | { readonly id: string; readonly terms: readonly string[] };

interface Indexed {
  readonly id: string;
  readonly tf: Map<string, number>;
  readonly length: number;
}

/**
 * An immutable BM25 index built once over `documents`: `search(query)` returns the documents
 * holding any of the query's terms, best first.
 *
 * @example
 * ```ts
 * const index = new Bm25Index([
 *   { id: 'a', text: 'refund policy for orders' },
 *   { id: 'b', text: 'shipping times' },
 * ]);
 * index.search('refund'); // [{ id: 'a', score: … }]
 * ```
 */
export class Bm25Index {
  readonly #documents: readonly Indexed[];
  readonly #documentFrequency = new Map<string, number>();
  /**
   * Term → the positions of the documents holding it (ascending) and the term's count in
   * each: a search visits only those documents.
   */
  readonly #postings = new Map<string, { positions: number[]; counts: number[] }>();
  /** Each document's length normalisation, `k1 × (1 − b + b × length / average)`. */
  readonly #norms: Float64Array;
  readonly #averageLength: number;

  constructor(
    documents: readonly Bm25Document[],
    readonly k1 = 1.2,
    readonly b = 0.75,
  ) {
    this.#documents = documents.map((document, position) => {
      const terms = 'terms' in document ? document.terms : tokenize(document.text);
      const tf = new Map<string, number>();
      for (const term of terms) tf.set(term, (tf.get(term) ?? 0) + 1);
      for (const [term, count] of tf) {
        this.#documentFrequency.set(term, (this.#documentFrequency.get(term) ?? 0) + 1);
        const posting = this.#postings.get(term);
        if (posting === undefined)
          this.#postings.set(term, { positions: [position], counts: [count] });
        else {
          posting.positions.push(position);
          posting.counts.push(count);
        }
      }
      return { id: document.id, tf, length: terms.length };
    });
    const total = this.#documents.reduce((sum, doc) => sum + doc.length, 0);
    this.#averageLength = total / Math.max(1, documents.length);
    const average = this.#averageLength || 1;
    this.#norms = Float64Array.from(
      this.#documents,
      (doc) => k1 * (1 - b + (b * doc.length) / average),
    );
  }

  /** Inverse document frequency of `term` (already tokenised); never negative. */
  idf(term: string): number {
    const n = this.#documentFrequency.get(term) ?? 0;
    const N = this.#documents.length;
    return Math.log(1 + (N - n + 0.5) / (n + 0.5));
  }

  /** Documents matching at least one query term, best first (ties keep corpus order). */
  search(query: string, limit = 5): Bm25Hit[] {
    const terms = [...new Set(tokenize(query))];
    // Scores summed term by term over the documents holding the term, then ranked; ties
    // keep corpus order. Every term's contribution is positive, so 0 means "not touched".
    const sums = new Float64Array(this.#documents.length);
    const touched: number[] = [];
    const norms = this.#norms;
    const k1 = this.k1;
    for (const term of terms) {
      const posting = this.#postings.get(term);
      if (posting === undefined) continue;
      const idf = this.idf(term);
      const { positions, counts } = posting;
      for (let i = 0; i < positions.length; i++) {
        const position = positions[i] as number;
        const tf = counts[i] as number;
        if (sums[position] === 0) touched.push(position);
        sums[position] =
          (sums[position] as number) + (idf * tf * (k1 + 1)) / (tf + (norms[position] as number));
      }
    }
    return topHits(touched, sums, limit).map(([position, score]) => ({
      id: (this.#documents[position] as Indexed).id,
      score,
    }));
  }
}

/** Before `b` in a ranking: a higher score, or an equal score earlier in the corpus. */
function ranksBefore(a: readonly [number, number], b: readonly [number, number]): boolean {
  return a[1] > b[1] || (a[1] === b[1] && a[0] < b[0]);
}

/**
 * The `limit` best `[position, score]` entries with a positive score, best first: one pass
 * keeping a sorted list of at most `limit` (most hits are rejected against its last entry),
 * rather than sorting every hit.
 */
function topHits(
  touched: readonly number[],
  sums: Float64Array,
  limit: number,
): [number, number][] {
  const top: [number, number][] = [];
  if (limit <= 0) return top;
  const scores = touched.map((position): [number, number] => [position, sums[position] as number]);
  // A long list (fusion wants every hit): one sort beats inserting into it.
  if (limit > 64) {
    const all = scores.filter(([, score]) => score > 0);
    all.sort((a, b) => (ranksBefore(a, b) ? -1 : ranksBefore(b, a) ? 1 : 0));
    return all.slice(0, limit);
  }
  for (const hit of scores) {
    if (!(hit[1] > 0)) continue;
    if (top.length === limit && !ranksBefore(hit, top[limit - 1] as [number, number])) continue;
    let at = top.length;
    while (at > 0 && ranksBefore(hit, top[at - 1] as [number, number])) at--;
    top.splice(at, 0, hit);
    if (top.length > limit) top.pop();
  }
  return top;
}
