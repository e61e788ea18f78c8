import { isJsonObject, type JsonObject, type JsonValue } from '../json.js';
import { type BlockRun, type SealedList, sealedListJson } from './sealedLists.js';
import {
  pathName,
  randomTag,
  SEGMENT_FORMAT,
  segmentKey,
  segmentStart,
  TAG,
} from './segmentKeys.js';

export { joinState, readSealed, type SealedList } from './sealedLists.js';
export {
  contentHash,
  isSegmentKeyOf,
  readSegment,
  SEGMENT_FORMAT,
  SEGMENT_SEPARATOR,
  segmentOwner,
} from './segmentKeys.js';

/** A segment to write: its key and its value. */
export interface SegmentWrite {
  readonly key: string;
  readonly value: JsonObject;
}

/** A state split for a checkpoint: the head's part, and the segments it refers to. */
export interface SplitState {
  /** The state with each segmented `messages` array emptied (its messages are in segments). */
  readonly state: JsonObject;
  /** The head's `sealed` lists (format 3). */
  readonly sealed: readonly JsonObject[];
  /** Every segment key `sealed` refers to. */
  readonly keys: ReadonlySet<string>;
  /** The segments not known to be in the session yet (to write before the head). */
  readonly writes: readonly SegmentWrite[];
}

/** Messages saved as one segment at one position: a sealed block, or a piece of the tail. */
interface Saved {
  readonly messages: readonly JsonValue[];
  readonly start: number;
  /**
   * Its JSON, made only when other objects are compared with it: a block loaded from the
   * session (the agent's memory holds copies of its messages), or a memory without
   * `checkpointDict` (a copy at every save). Then the block is known by its text.
   */
  json?: string;
  readonly key: string;
  readonly tag: string;
}

/** Whether `saved` holds the same objects as `messages` from its start on, in order. */
function sameItems(saved: Saved, messages: readonly JsonValue[]): boolean {
  const items = saved.messages;
  if (saved.start + items.length > messages.length) return false;
  for (let i = 0; i < items.length; i++) if (items[i] !== messages[saved.start + i]) return false;
  return true;
}

// A messages array is looked for this deep: `memory.messages`, `<sub-agent>.memory.messages`.
const MAX_DEPTH = 4;

/**
 * The segments of one durable key. Each `messages` array of the state (a memory's, a nested
 * agent's) is kept out of the head: its full blocks of `size` messages are sealed segments,
 * each written once under `<key>~seg.<path>.<start>.<generation>`; the messages after the
 * last full block are *pieces*, each written once when first saved (the messages new since
 * the previous checkpoint) under a tag of its own (or, with `inlineTail`, stay in the head).
 * So a checkpoint writes what is new since the last one, and a head whose size does not grow
 * with the conversation.
 *
 * Messages are immutable values (see `Msg`): a saved message is known by its identity, so a
 * block or piece whose message objects are the ones saved is neither copied, serialised nor
 * written again. A changed position (compaction, `memory.clear`, a hook's replacement, a
 * loaded state) holds a new object, and its block or piece, and the pieces after it, are
 * written again under new keys; the ones no longer referred to are deleted after the head.
 */
export class Segments {
  readonly #key: string;
  readonly #size: number;
  /** Segment keys known to be in the session. */
  readonly #stored = new Set<string>();
  /** The last block seen per position: by path name, then `start / size`. */
  readonly #blocks = new Map<string, (Saved | undefined)[]>();
  /** The pieces of each list's tail as last saved, in order, by path name. */
  readonly #pieces = new Map<string, readonly Saved[]>();
  /** The key part of each messages path seen (`pathName`), by the path's names joined. */
  readonly #names = new Map<string, string>();
  /** The tag of the blocks this process seals (a new one whenever a block is replaced). */
  #generation = randomTag();
  /** Whether the messages after the last full block stay in the head (no pieces). */
  readonly #inlineTail: boolean;

  /**
   * `inlineTail`: keep the messages after the last full block in the head instead of pieces,
   * for a session whose every write is costly whatever its size (a file per key): fewer
   * writes a checkpoint, each head rewriting at most `size - 1` messages.
   */
  constructor(key: string, size: number, inlineTail = false) {
    this.#key = key;
    this.#size = size;
    this.#inlineTail = inlineTail;
  }

  /** Forgets what is known to be stored (after a load, or when the run was lost). */
  reset(): void {
    this.#stored.clear();
    this.#blocks.clear();
    this.#pieces.clear();
    this.#generation = randomTag();
  }

  /** Marks `keys` as in the session (written, or just loaded). */
  stored(keys: Iterable<string>): void {
    for (const key of keys) this.#stored.add(key);
  }

  /** Marks `keys` as gone from the session (deleted). */
  forget(keys: Iterable<string>): void {
    for (const key of keys) this.#stored.delete(key);
  }

  /** Cuts `state`'s `messages` arrays into segments; the head keeps them empty. */
  split(state: JsonObject): SplitState {
    const sealed: JsonObject[] = [];
    const keys = new Set<string>();
    const writes: SegmentWrite[] = [];
    const head = this.#cut(state, [], { sealed, keys, writes });
    return { state: head, sealed, keys, writes };
  }

  #cut(node: JsonObject, path: string[], out: Out): JsonObject {
    let copy: JsonObject | undefined;
    // `path` is the walk's stack (a copy only for a list it seals): no array per object.
    for (const name of Object.keys(node)) {
      const value = node[name];
      let cut: JsonValue | undefined;
      if (
        name === 'messages' &&
        Array.isArray(value) &&
        value.length >= (this.#inlineTail ? this.#size : 1)
      ) {
        cut = this.#seal([...path, name], value, out);
      } else if (isJsonObject(value) && path.length < MAX_DEPTH) {
        path.push(name);
        const inner = this.#cut(value, path, out);
        path.pop();
        if (inner !== value) cut = inner;
      }
      if (cut !== undefined) {
        copy ??= { ...node };
        copy[name] = cut;
      }
    }
    return copy ?? node;
  }

  /** Seals `messages` into segments; returns what the head keeps of it. */
  #seal(path: string[], messages: readonly JsonValue[], out: Out): JsonValue[] {
    const size = this.#size;
    const count = Math.floor(messages.length / size) * size;
    const name = this.#nameOf(path);
    const blocks = this.#blocksOf(name);
    const runs: { tag: string; count: number }[] = [];
    // An unchanged block costs a comparison of its message objects: nothing is copied.
    for (let start = 0; start < count; start += size) {
      const block = this.#blockAt(name, blocks, messages, start);
      this.#use(block, out);
      const last = runs[runs.length - 1];
      if (last?.tag === block.tag) last.count++;
      else runs.push({ tag: block.tag, count: 1 });
    }
    const pieces = this.#inlineTail ? [] : this.#piecesOf(name, messages, count);
    for (const piece of pieces) this.#use(piece, out);
    out.sealed.push(
      sealedListJson(
        path,
        size,
        runs as BlockRun[],
        pieces.map((piece) => `${piece.start}.${piece.tag}`),
      ),
    );
    return this.#inlineTail ? messages.slice(count) : EMPTY;
  }

  /** Refers to `saved`, to be written first unless the session holds it. */
  #use(saved: Saved, out: Out): void {
    out.keys.add(saved.key);
    if (!this.#stored.has(saved.key))
      out.writes.push({
        key: saved.key,
        value: {
          format: SEGMENT_FORMAT,
          start: saved.start,
          messages: saved.messages as JsonValue[],
        },
      });
  }

  /**
   * The pieces of `messages` after the sealed `count`: the ones saved before while their
   * objects are the same and they follow on from `count`, then one new piece of the rest.
   */
  #piecesOf(name: string, messages: readonly JsonValue[], count: number): Saved[] {
    const known = this.#pieces.get(name) ?? [];
    const pieces: Saved[] = [];
    let at = count;
    for (const piece of known) {
      if (piece.start !== at || !sameItems(piece, messages)) break;
      pieces.push(piece);
      at += piece.messages.length;
    }
    if (at < messages.length) {
      const tag = randomTag();
      const key = segmentKey(this.#key, name, at, tag);
      pieces.push({ messages: messages.slice(at), start: at, key, tag });
    }
    this.#pieces.set(name, pieces);
    return pieces;
  }

  /** `pathName(path)`, encoded once per path. */
  #nameOf(path: readonly string[]): string {
    const id = path.join('\0');
    let name = this.#names.get(id);
    if (name === undefined) {
      name = pathName(path);
      this.#names.set(id, name);
    }
    return name;
  }

  /** The blocks last seen of the list at path `name`, by `start / size`. */
  #blocksOf(name: string): (Saved | undefined)[] {
    const known = this.#blocks.get(name);
    if (known !== undefined) return known;
    const blocks: (Saved | undefined)[] = [];
    this.#blocks.set(name, blocks);
    return blocks;
  }

  /**
   * The block of `messages` from `start` on. The same message objects as last time are the
   * same segment without copying or serialising them; other objects are compared by their
   * JSON with the block last seen there (copies: a loaded state, a memory without
   * `checkpointDict`); a block that differs is a new segment of this process's generation.
   */
  #blockAt(
    name: string,
    blocks: (Saved | undefined)[],
    messages: readonly JsonValue[],
    start: number,
  ): Saved {
    const at = start / this.#size;
    const known = blocks[at];
    if (known !== undefined && sameItems(known, messages)) return known;
    const items = messages.slice(start, start + this.#size);
    if (known !== undefined) {
      // Other objects: the same block when their JSON is the same (copies of its messages).
      known.json ??= JSON.stringify(known.messages);
      const json = JSON.stringify(items);
      if (json === known.json) {
        const same = { messages: items, start, json, key: known.key, tag: known.tag };
        blocks[at] = same;
        return same;
      }
    }
    // A key is never used for two contents: a block replaced at a position whose key is of
    // this generation starts a new generation.
    if (known?.tag === this.#generation) this.#generation = randomTag();
    const tag = this.#generation;
    const block = { messages: items, start, key: segmentKey(this.#key, name, start, tag), tag };
    blocks[at] = block;
    return block;
  }

  /**
   * Remembers the segments of a loaded state: its blocks (so unchanged ones are not written
   * again) and its pieces (kept while the agent's memory holds the same objects).
   */
  learn(sealed: readonly SealedList[], segments: ReadonlyMap<string, JsonValue[]>): void {
    for (const list of sealed) {
      if (list.size !== undefined && list.size !== this.#size) continue;
      const name = this.#nameOf(list.path);
      const known = this.#blocksOf(name);
      list.keys.forEach((key, i) => {
        const messages = segments.get(key);
        const start = messages && segmentStart(key);
        if (messages === undefined || start === undefined || i >= list.blocks) return;
        // Positional keys only (an older version's, hashed, are as good as a generation).
        const tag = key.slice(-16);
        if (start % this.#size !== 0 || messages.length !== this.#size || !TAG.test(tag)) return;
        if (segmentKey(this.#key, name, start, tag) !== key) return;
        known[start / this.#size] = { messages, start, json: JSON.stringify(messages), key, tag };
      });
    }
  }
}

/** What a split collects. */
interface Out {
  readonly sealed: JsonObject[];
  readonly keys: Set<string>;
  readonly writes: SegmentWrite[];
}

/** The head's value of a segmented `messages` array: every message is in a segment. */
const EMPTY: JsonValue[] = Object.freeze([]) as unknown as JsonValue[];
