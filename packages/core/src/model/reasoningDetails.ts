import type { JsonObject, JsonValue } from '../json.js';

/** Fields of a reasoning detail whose streamed pieces concatenate. */
const CONCATENATED: ReadonlySet<string> = new Set(['text', 'summary', 'data']);

interface Detail {
  /** Every field but the concatenated ones, latest non-empty value first seen in key order. */
  readonly fields: Record<string, JsonValue>;
  readonly parts: Map<string, string[]>;
}

/**
 * Merges streamed pieces of OpenRouter's `reasoning_details` in time linear in their size:
 * a piece with an `index` seen before continues that detail (`text`, `summary` and `data`
 * append; any other field takes the piece's value unless it is `null` or `''`); a piece
 * with a new index, or with none, starts a detail. Details keep the order they started in.
 */
export class ReasoningDetails {
  readonly #details: Detail[] = [];
  readonly #byIndex = new Map<number, Detail>();

  /** Adds the pieces of one chunk. */
  add(pieces: readonly JsonObject[]): void {
    for (const piece of pieces) this.#addPiece(piece);
  }

  /** The merged details (joins the parts: call it once). */
  merged(): JsonObject[] {
    return this.#details.map(({ fields, parts }) => {
      const out: JsonObject = {};
      for (const [key, value] of Object.entries(fields)) {
        const joined = parts.get(key);
        out[key] = joined === undefined || joined.length === 0 ? value : joined.join('');
      }
      return out;
    });
  }

  #addPiece(piece: JsonObject): void {
    if (typeof piece !== 'object' || piece === null || Array.isArray(piece)) return;
    const index = piece['index'];
    let detail = typeof index === 'number' ? this.#byIndex.get(index) : undefined;
    if (!detail) {
      detail = { fields: {}, parts: new Map() };
      this.#details.push(detail);
      if (typeof index === 'number') this.#byIndex.set(index, detail);
    }
    for (const [key, value] of Object.entries(piece)) {
      if (value === undefined) continue;
      if (CONCATENATED.has(key) && (typeof value === 'string' || value === null)) {
        let parts = detail.parts.get(key);
        if (!parts) {
          parts = [];
          detail.parts.set(key, parts);
          detail.fields[key] = null;
        }
        if (value) parts.push(value);
      } else if (!(key in detail.fields) || (value !== null && value !== '')) {
        detail.fields[key] = value;
      }
    }
  }
}
