import { type Embedder, InvalidArgumentError } from '@rxagent/core';

/** Options of `new HashEmbedder()`. */
export interface HashEmbedderOptions {
  /** The length of every vector (default 256). */
  readonly dimensions?: number;
}

/**
 * A deterministic, offline `Embedder` for tests, examples and small deployments: each text
 * becomes a normalised vector of hashed features — its lower-cased words, a crude stem of
 * each (so `vegetarian` and `vegetarians` meet) and their character trigrams — so texts
 * that share words or word parts score close under cosine similarity. It knows no synonyms:
 * for meaning beyond shared word parts, use a model (`OpenAIEmbedder`).
 *
 * @example
 * ```ts
 * const embedder = new HashEmbedder({ dimensions: 128 });
 * const [a, b] = await embedder.embed(['Alice is vegetarian', 'vegetarian food for Alice']);
 * ```
 */
export class HashEmbedder implements Embedder {
  readonly name: string;
  readonly dimensions: number;

  constructor(options: HashEmbedderOptions = {}) {
    const dimensions = options.dimensions ?? 256;
    if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 65_536) {
      throw new InvalidArgumentError(
        `HashEmbedder: dimensions must be an integer from 1 to 65536, got ${String(dimensions)}.`,
      );
    }
    this.dimensions = dimensions;
    this.name = `hash-${dimensions}`;
  }

  /** One unit vector per text (all zeros for a text without letters or digits). */
  embed(
    texts: readonly string[],
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<number[][]> {
    options.signal?.throwIfAborted();
    return Promise.resolve(texts.map((text) => this.#vector(text)));
  }

  #vector(text: string): number[] {
    const vector = new Array<number>(this.dimensions).fill(0);
    // Each feature lands in two slots (two hashes), each with a sign from the hash's top bit:
    // a collision with an unrelated feature then shifts a score by half as much.
    const add = (feature: string, weight: number): void => {
      for (const hash of [fnv1a(feature), fnv1a(`${feature}#`)]) {
        vector[hash % this.dimensions]! += hash & 0x8000_0000 ? -weight : weight;
      }
    };
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      add(`w:${word}`, 1);
      const stem = stemOf(word);
      if (stem !== word) add(`w:${stem}`, 0.5);
      const padded = `^${stem}$`;
      for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`, 0.5);
    }
    let sum = 0;
    for (const value of vector) sum += value * value;
    const norm = Math.sqrt(sum);
    return norm === 0 ? vector : vector.map((value) => value / norm);
  }
}

/** Drops a few common English suffixes: enough for plurals and tenses to meet. */
function stemOf(word: string): string {
  for (const suffix of ['ing', 'ed', 'es', 's', 'ly']) {
    if (word.length > suffix.length + 2 && word.endsWith(suffix))
      return word.slice(0, -suffix.length);
  }
  return word;
}

/** 32-bit FNV-1a of the string's UTF-16 code units, unsigned. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
