import { SessionCorruptError } from '../errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../json.js';
import { isSegmentKeyOf, pathName, segmentKey, TAG } from './segmentKeys.js';

/**
 * A `messages` array of a checkpoint's state kept in segments: where it is, and the keys of
 * its segments, in order (their messages joined give the array).
 */
export interface SealedList {
  /** The property names from the state's root to the `messages` array. */
  readonly path: readonly string[];
  /** The keys of its segments, oldest first: `blocks` sealed blocks, then its tail's pieces. */
  readonly keys: readonly string[];
  /** How many of `keys` are sealed blocks of `size` messages each (the rest are pieces). */
  readonly blocks: number;
  /** Messages per sealed block; absent in a head of format 2, whose segments are all blocks. */
  readonly size?: number;
}

/**
 * A run of consecutive sealed blocks of one generation in a head (format 3): block `i` of
 * the list is `<key>~seg.<path>.<i × size>.<tag>`.
 */
export interface BlockRun {
  readonly tag: string;
  readonly count: number;
}

/**
 * A sealed list as a head (format 3) holds it: the blocks as runs of one generation and the
 * pieces as `<start>.<tag>`, so a head stays small however many blocks were sealed.
 */
export function sealedListJson(
  path: readonly string[],
  size: number,
  runs: readonly BlockRun[],
  pieces: readonly string[],
): JsonObject {
  return {
    path: path as string[],
    size,
    blocks: runs as unknown as JsonObject[],
    pieces: pieces as string[],
  };
}

const PIECE = /^(\d+)\.([0-9a-f]{16})$/;

/**
 * Reads a head's `sealed` lists (`format`: the head's format version, 2 or 3); throws
 * `SessionCorruptError` naming `key` when malformed.
 */
export function readSealed(key: string, value: JsonValue | undefined, format: 2 | 3): SealedList[] {
  if (value === undefined) return [];
  const lists = Array.isArray(value) ? value.map((list) => readList(key, list, format)) : [];
  if (!Array.isArray(value) || lists.some((list) => list === undefined)) {
    throw new SessionCorruptError(
      format === 2
        ? `The checkpoint under "${key}" has a malformed "sealed" list (expected [{ path, keys }] of this key's segments).`
        : `The checkpoint under "${key}" has a malformed "sealed" list (expected [{ path, size, blocks: [{ tag, count }], pieces: ["<start>.<tag>"] }]).`,
      key,
    );
  }
  return lists as SealedList[];
}

function readList(owner: string, list: JsonValue, format: 2 | 3): SealedList | undefined {
  if (!isJsonObject(list)) return undefined;
  const path = list['path'];
  if (
    !Array.isArray(path) ||
    path.length === 0 ||
    !path.every((name): name is string => typeof name === 'string')
  )
    return undefined;
  if (format === 2) {
    const keys = list['keys'];
    if (
      !Array.isArray(keys) ||
      !keys.every((k) => typeof k === 'string' && isSegmentKeyOf(k, owner))
    )
      return undefined;
    return { path, keys: keys as string[], blocks: keys.length };
  }
  const { size, blocks, pieces } = list;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 1) return undefined;
  if (!Array.isArray(blocks) || !Array.isArray(pieces)) return undefined;
  const name = pathName(path);
  const keys: string[] = [];
  for (const run of blocks) {
    if (!isJsonObject(run)) return undefined;
    const { tag, count } = run;
    if (typeof tag !== 'string' || !TAG.test(tag)) return undefined;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) return undefined;
    for (let i = 0; i < count; i++) keys.push(segmentKey(owner, name, keys.length * size, tag));
  }
  const sealed = keys.length;
  for (const piece of pieces) {
    const match = typeof piece === 'string' ? PIECE.exec(piece) : null;
    if (match === null) return undefined;
    keys.push(segmentKey(owner, name, Number(match[1]), match[2] as string));
  }
  return { path, keys, blocks: sealed, size };
}

/**
 * The state of a checkpoint head with its segments' messages put back: each sealed list's
 * messages, in order, before what the head kept of it. `segments` maps each key to the
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
