/**
 * Turns texts into vectors for semantic search. `dimensions` is the length of every vector
 * `embed` returns; `name` identifies the model, so a store never compares vectors of two
 * different embedders.
 */
export interface Embedder {
  readonly name: string;
  readonly dimensions: number;
  /** One vector per text, in order. */
  embed(texts: readonly string[], options?: { readonly signal?: AbortSignal }): Promise<number[][]>;
}
