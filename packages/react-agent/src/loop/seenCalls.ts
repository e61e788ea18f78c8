/** A tool call already made in this agent call: its id and, once it succeeded, its result text. */
export interface SeenCall {
  readonly id: string;
  readonly result?: string;
}

/** Entries kept in the flat array before they move into a Map. */
const FLAT_LIMIT = 16;

/**
 * The tool calls already made in one agent call, by dedupe key (see `ToolCallRun`), as a
 * `Map` would hold them but sized for the usual handful: up to 16 entries live in one flat
 * array of exact length (key, id, result, key, id, result…), with no hash table and no
 * entry object per call, and nothing at all before the first tool call; a seventeenth moves
 * them into a `Map`. A parked call holds this for as long as it waits.
 */
export class SeenCalls {
  #flat: readonly (string | undefined)[] | undefined;
  #map: Map<string, SeenCall> | undefined;

  /** How many calls are kept. */
  get size(): number {
    return this.#map?.size ?? (this.#flat?.length ?? 0) / 3;
  }

  /** The call made with `key`, if any. */
  get(key: string): SeenCall | undefined {
    if (this.#map !== undefined) return this.#map.get(key);
    const flat = this.#flat;
    const at = this.#indexOf(key);
    if (flat === undefined || at < 0) return undefined;
    const result = flat[at + 2];
    return result === undefined ? { id: flat[at + 1]! } : { id: flat[at + 1]!, result };
  }

  /** Keeps `call` under `key` (replacing an earlier one). */
  set(key: string, call: SeenCall): this {
    if (this.#map !== undefined) {
      this.#map.set(key, call);
      return this;
    }
    const flat = this.#flat ?? [];
    const at = this.#indexOf(key);
    if (at >= 0) {
      // A copy of exact length: the array is never grown in place (V8 would leave slack).
      const next = flat.slice();
      next[at + 1] = call.id;
      next[at + 2] = call.result;
      this.#flat = next;
    } else if (flat.length / 3 < FLAT_LIMIT) {
      this.#flat = [...flat, key, call.id, call.result];
    } else {
      const map = new Map<string, SeenCall>();
      for (let i = 0; i < flat.length; i += 3) {
        const result = flat[i + 2];
        map.set(
          flat[i]!,
          result === undefined ? { id: flat[i + 1]! } : { id: flat[i + 1]!, result },
        );
      }
      map.set(key, call);
      this.#map = map;
      this.#flat = undefined;
    }
    return this;
  }

  /** Forgets the call made with `key`; whether there was one. */
  delete(key: string): boolean {
    if (this.#map !== undefined) return this.#map.delete(key);
    const at = this.#indexOf(key);
    if (at < 0) return false;
    const flat = this.#flat!;
    const next = [...flat.slice(0, at), ...flat.slice(at + 3)];
    this.#flat = next.length === 0 ? undefined : next;
    return true;
  }

  #indexOf(key: string): number {
    const flat = this.#flat;
    if (flat === undefined) return -1;
    for (let i = 0; i < flat.length; i += 3) if (flat[i] === key) return i;
    return -1;
  }
}
