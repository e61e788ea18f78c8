import type { Embedder } from '../../memory/embedder.js';

// Words that mean one thing share a dimension; other words embed to nothing.
const CONCEPTS: Readonly<Record<string, number>> = {
  car: 0,
  automobile: 0,
  vehicle: 0,
  banana: 1,
  fruit: 1,
  bread: 2,
  bakery: 2,
  repair: 3,
  service: 3,
};

/**
 * The embedder of the memory-store suite: deterministic, offline, with a few synonyms in one
 * dimension (car, automobile, vehicle), so a search by meaning finds items without the
 * query's words. It counts how often each text was embedded.
 */
export class ConceptEmbedder implements Embedder {
  readonly name = 'rxagent-conformance-concepts';
  readonly dimensions = 8;
  readonly #counts = new Map<string, number>();

  async embed(texts: readonly string[]): Promise<number[][]> {
    return texts.map((text) => {
      this.#counts.set(text, (this.#counts.get(text) ?? 0) + 1);
      const vector = new Array<number>(this.dimensions).fill(0);
      for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
        const at = CONCEPTS[word];
        if (at !== undefined) vector[at] = (vector[at] ?? 0) + 1;
      }
      return vector;
    });
  }

  /** How often each text was embedded. */
  counts(): ReadonlyMap<string, number> {
    return this.#counts;
  }
}
