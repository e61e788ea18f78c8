import { randomUUID } from 'node:crypto';

/**
 * `text`, flattened in place. V8 builds a `randomUUID()` by concatenation, as a tree of about
 * 20 string nodes (~490 bytes on Node 20); reading one character turns it into a single
 * ~70-byte string. Ids live as long as the messages and agents holding them, so a long
 * conversation or many parked agents keep thousands of them.
 */
export function flatString(text: string): string {
  text.charCodeAt(0);
  return text;
}

/** A fresh random UUID, stored as one flat string (see `flatString`): the ids Msgs get. */
export function newId(): string {
  return flatString(randomUUID());
}
