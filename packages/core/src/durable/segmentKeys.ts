import { createHash, randomBytes } from 'node:crypto';
import { SessionCorruptError } from '../errors.js';
import type { JsonObject, JsonValue } from '../json.js';

/** The marker and format version of a segment of messages in a session (a block or a piece). */
export const SEGMENT_FORMAT = 'rxagent.segment/1';

/** What separates a durable key from the name of one of its segments' keys. */
export const SEGMENT_SEPARATOR = '~seg.';

// What follows the separator in a segment key: `<path>.<start>.<16 hex digits>`.
const SEGMENT_SUFFIX = /^[^.~]+\.\d+\.[0-9a-f]{16}$/;

/** 16 hex digits: the last part of a segment key (a generation, a piece's own, or a hash). */
export const TAG = /^[0-9a-f]{16}$/;

/** The key of the segment of durable key `owner`'s list `name` from `start` on, tagged `tag`. */
export function segmentKey(owner: string, name: string, start: number, tag: string): string {
  return `${owner}${SEGMENT_SEPARATOR}${name}.${start}.${tag}`;
}

/** A messages path as one key part: names URI-encoded (dots and tildes too), joined by `/`. */
export function pathName(path: readonly string[]): string {
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
export function segmentStart(key: string): number | undefined {
  const tail = key.slice(key.lastIndexOf(SEGMENT_SEPARATOR) + SEGMENT_SEPARATOR.length);
  const parts = tail.split('.');
  const start = Number(parts[parts.length - 2]);
  return Number.isInteger(start) ? start : undefined;
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

// Tags are 12 random hex digits (48 bits, drawn once per 65,536 tags) and a 4-digit counter:
// unique in this process, and two processes' tags collide as rarely as random 64-bit ones
// would in practice, without a call of randomBytes (or its hex text) per tag.
let prefix = '';
let counter = 0x10000;

/** 16 hex digits never drawn before in this process: a generation of blocks, or a piece's tag. */
export function randomTag(): string {
  if (counter >= 0x10000) {
    prefix = randomBytes(6).toString('hex');
    counter = 0;
  }
  return prefix + (counter++).toString(16).padStart(4, '0');
}

/**
 * A 64-bit content hash of `text` as 16 hex digits (the first of its SHA-256): how versions
 * before `rxagent.checkpoint/3` tagged a sealed block; such keys are still read and kept.
 */
export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
