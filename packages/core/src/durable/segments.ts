import { createHash, randomBytes } from 'node:crypto';
import { SessionCorruptError } from '../errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../json.js';

/** The marker and format version of a sealed segment of messages in a session. */
export const SEGMENT_FORMAT = 'rxagent.segment/1';

/** What separates a durable key from the name of one of its segments' keys. */
export const SEGMENT_SEPARATOR = '~seg.';

/** The messages of a state a checkpoint keeps in sealed segments: where, and under which keys. */
export interface SealedList {
  /** The property names from the state's root to the `messages` array. */
  readonly path: readonly string[];
  /** The keys of its sealed segments, oldest first; the array's tail stays in the head. */
  readonly keys: readonly string[];
}

/** A segment to write: its key and its value. */
export interface SegmentWrite {
  readonly key: string;
  readonly value: JsonObject;
}

/** A state split for a checkpoint: the head's part, and the segments it refers to. */
export interface SplitState {
  /** The state with each segmented `messages` array cut to its unsealed tail. */
  readonly state: JsonObject;
  readonly sealed: readonly SealedList[];
  /** Every segment key `sealed` refers to. */
  readonly keys: ReadonlySet<string>;
  /** The segments not known to be in the session yet (to write before the head). */
  readonly writes: readonly SegmentWrite[];
}

/** A block of messages as last seen at one position. */
interface Block {
  readonly messages: readonly JsonValue[];
  /**
   * Its JSON, kept only for a block loaded from the session, whose key another version may
   * have hashed differently; a block this process hashed is known by its key, which its
   * content gives again.
   */
  readonly json?: string;
  readonly key: string;
}

/** Whether `block` holds the same objects as `messages` from `start` on, in order. */
function sameItems(block: readonly JsonValue[], messages: readonly JsonValue[], start: number) {
  for (let i = 0; i < block.length; i++) if (block[i] !== messages[start + i]) return false;
  return true;
}

// A messages array is looked for this deep: `memory.messages`, `<sub-agent>.memory.messages`.
const MAX_DEPTH = 4;

/**
 * The sealed segments of one durable key: the state's `messages` arrays cut into fixed blocks
 * of `size` messages, each full block saved once under its own content-addressed key
 * (`<key>~seg.<path>.<start>.<hash>`), so a checkpoint rewrites only the last, unsealed
 * block however long the conversation. It remembers which segments are in the session (saved
 * or loaded by this process) and the JSON of each block, so an unchanged block is neither
 * hashed nor written again; a block whose messages changed (compaction, `memory.clear`, a
 * loaded state) gets a new key.
 */
export class Segments {
  readonly #key: string;
  readonly #size: number;
  /** Segment keys known to be in the session. */
  readonly #stored = new Set<string>();
  /** The last block seen per position: by path name, then `start / size`. */
  readonly #blocks = new Map<string, (Block | undefined)[]>();
  /** The key part of each messages path seen (`pathName`), by the path's names joined. */
  readonly #names = new Map<string, string>();
  /** The `objects` of the split under way. */
  #objects = false;

  constructor(key: string, size: number) {
    this.#key = key;
    this.#size = size;
  }

  /** Forgets what is known to be stored (after a load, or when the run was lost). */
  reset(): void {
    this.#stored.clear();
    this.#blocks.clear();
  }

  /** Marks `keys` as in the session (written, or just loaded). */
  stored(keys: Iterable<string>): void {
    for (const key of keys) this.#stored.add(key);
  }

  /** Marks `keys` as gone from the session (deleted). */
  forget(keys: Iterable<string>): void {
    for (const key of keys) this.#stored.delete(key);
  }

  /**
   * Cuts `state`'s long `messages` arrays into sealed segments and an unsealed tail.
   * `objects`: the session stores objects, not text (`SyncStore`), so a block sealed at a
   * position this process knew nothing at gets a random key instead of its content's hash,
   * without serialising it (see `#blockAt`).
   */
  split(state: JsonObject, objects = false): SplitState {
    const sealed: SealedList[] = [];
    const keys = new Set<string>();
    const writes: SegmentWrite[] = [];
    this.#objects = objects;
    const head = this.#cut(state, [], sealed, keys, writes);
    return { state: head, sealed, keys, writes };
  }

  #cut(
    node: JsonObject,
    path: string[],
    sealed: SealedList[],
    keys: Set<string>,
    writes: SegmentWrite[],
  ): JsonObject {
    let copy: JsonObject | undefined;
    // `path` is the walk's stack (a copy only for a list it seals): no array per object.
    for (const name of Object.keys(node)) {
      const value = node[name];
      let cut: JsonValue | undefined;
      if (name === 'messages' && Array.isArray(value) && value.length >= this.#size) {
        cut = this.#seal([...path, name], value, sealed, keys, writes);
      } else if (isJsonObject(value) && path.length < MAX_DEPTH) {
        path.push(name);
        const inner = this.#cut(value, path, sealed, keys, writes);
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

  #seal(
    path: string[],
    messages: readonly JsonValue[],
    sealed: SealedList[],
    keys: Set<string>,
    writes: SegmentWrite[],
  ): JsonValue[] {
    const size = this.#size;
    const count = Math.floor(messages.length / size) * size;
    const name = this.#nameOf(path);
    const list: string[] = [];
    const blocks = this.#blocksOf(name);
    // An unchanged block costs a comparison of its message objects: nothing is copied.
    for (let start = 0; start < count; start += size) {
      const block = this.#blockAt(name, blocks, messages, start);
      list.push(block.key);
      keys.add(block.key);
      if (!this.#stored.has(block.key))
        writes.push({
          key: block.key,
          value: { format: SEGMENT_FORMAT, start, messages: block.messages as JsonValue[] },
        });
    }
    sealed.push({ path, keys: list });
    return messages.slice(count);
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
  #blocksOf(name: string): (Block | undefined)[] {
    const known = this.#blocks.get(name);
    if (known !== undefined) return known;
    const blocks: (Block | undefined)[] = [];
    this.#blocks.set(name, blocks);
    return blocks;
  }

  /**
   * The block of `messages` from `start` on (its segment key). The same message objects as
   * last time (a memory's own, unchanged: see `StateModule.checkpointDict`) are the same
   * segment without copying or serialising them; other messages are serialised and hashed
   * (or, for a block loaded from the session, compared by their JSON first).
   */
  #blockAt(
    name: string,
    blocks: (Block | undefined)[],
    messages: readonly JsonValue[],
    start: number,
  ): Block {
    const at = start / this.#size;
    const known = blocks[at];
    if (known !== undefined && sameItems(known.messages, messages, start)) return known;
    const items = messages.slice(start, start + this.#size);
    if (known === undefined && this.#objects) {
      // A new block of an object store: no known version to compare it with, and a store in
      // this process needs no content key to dedupe writes across processes (two agents on
      // one InMemorySession that seal the same block write two segments, which is all).
      // 64 random bits collide as rarely as the hash's; no JSON text, no hash.
      const block = {
        messages: items,
        key: `${this.#key}${SEGMENT_SEPARATOR}${name}.${start}.${randomKey()}`,
      };
      blocks[at] = block;
      return block;
    }
    const json = JSON.stringify(items);
    const key =
      known?.json === json
        ? known.key
        : `${this.#key}${SEGMENT_SEPARATOR}${name}.${start}.${contentHash(json)}`;
    const block = { messages: items, key };
    blocks[at] = block;
    return block;
  }

  /** Remembers the blocks of a loaded state (so its unchanged segments are not hashed again). */
  learn(sealed: readonly SealedList[], blocks: ReadonlyMap<string, JsonValue[]>): void {
    for (const list of sealed) {
      const name = this.#nameOf(list.path);
      for (const key of list.keys) {
        const messages = blocks.get(key);
        const start = messages && segmentStart(key);
        if (messages === undefined || start === undefined || start % this.#size !== 0) continue;
        const known = this.#blocksOf(name);
        known[start / this.#size] = { messages, json: JSON.stringify(messages), key };
      }
    }
  }
}

/**
 * The state of a checkpoint head with its segments' messages put back: each sealed list's
 * messages, in order, before the tail the head kept. `segments` maps each key to the
 * segment's messages (`readSegment`).
 */
export function joinState(
  state: JsonObject,
  sealed: readonly SealedList[],
  segments: ReadonlyMap<string, JsonValue[]>,
): JsonObject {
  let joined = state;
  for (const list of sealed) {
    const before = list.keys.flatMap((key) => segments.get(key) ?? []);
    joined = putAt(joined, list.path, 0, (tail) => [
      ...before,
      ...(Array.isArray(tail) ? tail : []),
    ]);
  }
  return joined;
}

function putAt(
  node: JsonObject,
  path: readonly string[],
  at: number,
  change: (value: JsonValue | undefined) => JsonValue,
): JsonObject {
  const name = path[at] as string;
  const value = node[name];
  if (at === path.length - 1) return { ...node, [name]: change(value) };
  const inner = isJsonObject(value) ? value : {};
  return { ...node, [name]: putAt(inner, path, at + 1, change) };
}

/** The messages of segment `key`'s saved value; throws `SessionCorruptError` naming the key. */
export function readSegment(key: string, value: JsonObject | undefined): JsonValue[] {
  if (value === undefined) {
    throw new SessionCorruptError(
      `The checkpoint refers to segment "${key}", which the session does not hold; the segment was deleted or never written. Restore it or delete the checkpoint (deleteCheckpoint()).`,
      key,
    );
  }
  const messages = value['messages'];
  if (
    value['format'] !== SEGMENT_FORMAT ||
    !Array.isArray(messages) ||
    value['start'] !== segmentStart(key)
  ) {
    throw new SessionCorruptError(
      `Segment "${key}" is not a checkpoint segment (${SEGMENT_FORMAT} with its start and messages); it was overwritten. Restore it or delete the checkpoint (deleteCheckpoint()).`,
      key,
    );
  }
  return messages;
}

/** Reads a head's `sealed` list; throws `SessionCorruptError` naming `key` when malformed. */
export function readSealed(key: string, value: JsonValue | undefined): SealedList[] {
  if (value === undefined) return [];
  const ok =
    Array.isArray(value) &&
    value.every(
      (list) =>
        isJsonObject(list) &&
        Array.isArray(list['path']) &&
        list['path'].length > 0 &&
        list['path'].every((name) => typeof name === 'string') &&
        Array.isArray(list['keys']) &&
        list['keys'].every((k) => typeof k === 'string' && isSegmentKeyOf(k, key)),
    );
  if (!ok) {
    throw new SessionCorruptError(
      `The checkpoint under "${key}" has a malformed "sealed" list (expected [{ path, keys }] of this key's segments).`,
      key,
    );
  }
  return value as unknown as SealedList[];
}

// What follows the separator in a segment key: `<path>.<start>.<hash>`.
const SEGMENT_SUFFIX = /^[^.~]+\.\d+\.[0-9a-f]{16}$/;

/** A messages path as one key part: names URI-encoded (dots and tildes too), joined by `/`. */
function pathName(path: readonly string[]): string {
  return path
    .map((name) => encodeURIComponent(name).replace(/\./g, '%2E').replace(/~/g, '%7E'))
    .join('/');
}

/** Whether `key` names a segment of durable key `owner`. */
export function isSegmentKeyOf(key: string, owner: string): boolean {
  return segmentOwner(key) === owner;
}

/** The durable key a segment key belongs to, or `undefined` for a key of another kind. */
export function segmentOwner(key: string): string | undefined {
  const at = key.lastIndexOf(SEGMENT_SEPARATOR);
  if (at <= 0 || !SEGMENT_SUFFIX.test(key.slice(at + SEGMENT_SEPARATOR.length))) return undefined;
  return key.slice(0, at);
}

/** The start index a segment key names. */
function segmentStart(key: string): number | undefined {
  const tail = key.slice(key.lastIndexOf(SEGMENT_SEPARATOR) + SEGMENT_SEPARATOR.length);
  const parts = tail.split('.');
  const start = Number(parts[parts.length - 2]);
  return Number.isInteger(start) ? start : undefined;
}

// Random bytes for the keys of blocks sealed for an object store, drawn 8 at a time from a
// pool filled 64 keys at once (a call of randomBytes costs more than the key's other work).
const POOL_KEYS = 64;
let pool = Buffer.alloc(0);
let drawn = 0;

/** 16 random hex digits: the key of a block sealed for an object store (see `Segments.split`). */
function randomKey(): string {
  if (drawn >= pool.length) {
    pool = randomBytes(8 * POOL_KEYS);
    drawn = 0;
  }
  drawn += 8;
  return pool.toString('hex', drawn - 8, drawn);
}

/**
 * A 64-bit content hash of `text` as 16 hex digits (the first of its SHA-256), so two
 * processes that sealed different messages at one position write different keys. Native:
 * a JavaScript loop over a block's ~25 KB of JSON, run a few times a conversation, stayed
 * in V8's slower tiers at ~0.5 ms a block.
 */
export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
