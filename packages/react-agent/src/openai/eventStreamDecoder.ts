import { ModelError } from '@rxagent/core';

/** The longest line the decoder keeps (32 MB): a server that never ends a line is cut off. */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
const DATA = Buffer.from('data');
const EVENT = Buffer.from('event');

/** Receives one server-sent event: its data lines joined with `\n`, and its `event` name. */
export type EventHandler = (data: string, event: string | undefined) => void;

/**
 * A byte-level decoder of a server-sent event stream (`text/event-stream`): fed the body's
 * bytes as they arrive, it calls `onEvent` once per event, as the HTML standard's
 * event-stream interpretation defines it: lines end with LF, CR or CRLF (also when a CRLF
 * is split between two chunks); `data` lines join with `\n`; one space after the colon is
 * dropped; a line without a colon is a field with an empty value; comments (`:` lines),
 * `id`, `retry` and unknown fields are ignored; a leading byte-order mark is skipped; an
 * event without data is not dispatched; bytes after the last blank line are discarded at the
 * end (an unfinished event). Only the `data` and `event` values are decoded (UTF-8, as
 * `TextDecoder` does), once per line, so a character split between chunks is whole.
 *
 * The work is linear in the body: lines are found with native byte searches, the bytes of an
 * unfinished line are kept as a list and joined once when it ends (a 5 MB line arriving in
 * 64 KB chunks is copied once, not once per chunk). A line longer than `maxLineBytes`
 * (default `MAX_LINE_BYTES`) throws a `ModelError` instead of growing without bound.
 */
export class EventStreamDecoder {
  readonly #onEvent: EventHandler;
  /** Bytes of the line not yet ended, from earlier chunks. */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  readonly #maxLineBytes: number;
  #started = false;
  /** The last chunk ended with CR: an LF starting the next one ends nothing. */
  #afterCR = false;
  #data: string | undefined;
  #event: string | undefined;

  constructor(onEvent: EventHandler, maxLineBytes = MAX_LINE_BYTES) {
    this.#onEvent = onEvent;
    this.#maxLineBytes = maxLineBytes;
  }

  /** Decodes the next bytes of the body; throws whatever `onEvent` throws. */
  push(chunk: Uint8Array): void {
    const bytes = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const length = bytes.length;
    let start = 0;
    if (!this.#started && length > 0) {
      this.#started = true;
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
    }
    if (this.#afterCR) {
      this.#afterCR = false;
      if (bytes[start] === LF) start++;
    }
    // Where the next CR is, searched again only once passed: no rescan per line.
    let cr = bytes.indexOf(CR, start);
    while (start < length) {
      if (cr !== -1 && cr < start) cr = bytes.indexOf(CR, start);
      const lf = bytes.indexOf(LF, start);
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      if (end === -1) break;
      if (this.#pending.length === 0) this.#line(bytes, start, end);
      else this.#line(this.#joinPending(bytes.subarray(start, end)), 0, -1);
      if (end === cr) {
        if (end + 1 === length) this.#afterCR = true;
        else if (bytes[end + 1] === LF) {
          start = end + 2;
          continue;
        }
      }
      start = end + 1;
    }
    if (start < length) {
      this.#pendingBytes += length - start;
      if (this.#pendingBytes > this.#maxLineBytes) {
        throw new ModelError(
          `The model server sent a line of more than ${this.#maxLineBytes} bytes without ending it: not an event stream a client can read.`,
        );
      }
      this.#pending.push(bytes.subarray(start));
    }
  }

  /** Ends the body: an unfinished event is discarded, as the standard says. */
  end(): void {
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#data = undefined;
    this.#event = undefined;
  }

  #joinPending(last: Buffer): Buffer {
    this.#pending.push(last);
    const line = Buffer.concat(this.#pending);
    this.#pending = [];
    this.#pendingBytes = 0;
    return line;
  }

  /** One line: `bytes[start, end)`, or all of `bytes` when `end` is -1. */
  #line(bytes: Buffer, start: number, end: number): void {
    const stop = end === -1 ? bytes.length : end;
    if (stop === start) {
      this.#dispatch();
      return;
    }
    if (bytes[start] === COLON) return;
    let nameEnd = start;
    while (nameEnd < stop && bytes[nameEnd] !== COLON) nameEnd++;
    let valueStart = nameEnd === stop ? stop : nameEnd + 1;
    if (valueStart < stop && bytes[valueStart] === SPACE) valueStart++;
    if (isField(bytes, start, nameEnd, DATA)) {
      const value = bytes.toString('utf8', valueStart, stop);
      this.#data = this.#data === undefined ? value : `${this.#data}\n${value}`;
    } else if (isField(bytes, start, nameEnd, EVENT)) {
      this.#event = bytes.toString('utf8', valueStart, stop);
    }
  }

  #dispatch(): void {
    const data = this.#data;
    const event = this.#event;
    this.#data = undefined;
    this.#event = undefined;
    // An event without data (or with only an empty `data:` line) carries nothing to parse.
    if (data) this.#onEvent(data, event);
  }
}

function isField(bytes: Buffer, start: number, end: number, name: Buffer): boolean {
  if (end - start !== name.length) return false;
  for (let i = 0; i < name.length; i++) if (bytes[start + i] !== name[i]) return false;
  return true;
}
