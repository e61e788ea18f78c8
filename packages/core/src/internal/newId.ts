import { randomFillSync } from 'node:crypto';

/**
 * `text`, flattened in place. V8 keeps a string built by concatenation as a tree of string
 * nodes (a `randomUUID()` is about 20 of them, ~490 bytes on Node 20); reading one character
 * turns it into a single string of its length. Ids live as long as the messages and agents
 * holding them, so a long conversation or many parked agents keep thousands of them.
 */
export function flatString(text: string): string {
  text.charCodeAt(0);
  return text;
}

/** Random bytes drawn 16 per id, refilled from the CSPRNG when used up (as randomUUID does). */
const POOL = Buffer.alloc(16 * 256);
let poolOffset = POOL.length;
/** The 36 characters of an id, written in place, then read out as one string. */
const TEXT = Buffer.from('xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx', 'latin1');
/** Where each of the 16 bytes' two hex digits go in TEXT. */
const DIGIT_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
const HEX = Buffer.from('0123456789abcdef', 'latin1');

/**
 * A fresh random UUID (version 4, 122 random bits from the CSPRNG): the ids Msgs get.
 * Written into a byte buffer and read out once, so it is one flat 36-character string from
 * the start, without the concatenation tree `randomUUID()` allocates and drops per id.
 */
export function newId(): string {
  if (poolOffset === POOL.length) {
    randomFillSync(POOL);
    poolOffset = 0;
  }
  for (let i = 0; i < 16; i++) {
    let byte = POOL[poolOffset + i]!;
    if (i === 6)
      byte = (byte & 0x0f) | 0x40; // version 4
    else if (i === 8) byte = (byte & 0x3f) | 0x80; // variant 10xx
    const at = DIGIT_AT[i]!;
    TEXT[at] = HEX[byte >> 4]!;
    TEXT[at + 1] = HEX[byte & 0x0f]!;
  }
  poolOffset += 16;
  return TEXT.toString('latin1', 0, 36);
}
