import { InvalidArgumentError } from '../errors.js';

/** The suffix of every session file. */
export const SESSION_FILE_SUFFIX = '.json';

// Most file systems cap a name at 255 bytes; the suffix takes 5 of them.
const MAX_ENCODED_LENGTH = 255 - SESSION_FILE_SUFFIX.length;

// Upper-case letters are escaped too, so "Alice" and "alice" stay two files on
// case-insensitive file systems (macOS, Windows). Hex digits are always upper-case, which
// keeps the encoding canonical: two keys never map to names that differ only in case.
const KEPT_BYTE = /^[a-z0-9_-]$/;
const ENCODED_NAME = /^(?:[a-z0-9_-]|%[0-9A-F]{2})+$/;
// Windows reserves these device names even with an extension ("con.json").
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/;

// ignoreBOM keeps a leading U+FEFF as part of the key instead of dropping it.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The file name (without `.json`) of a session key: `[a-z0-9_-]` kept, every other UTF-8
 * byte as `%XX`. The result holds no `.`, `/` or `\`, so it always names a file inside the
 * session directory, and it is pure ASCII, so no file system normalises it. Throws
 * `InvalidArgumentError` when the name would be too long for a file system.
 */
export function encodeSessionKey(key: string, method: string): string {
  let name = '';
  for (const byte of Buffer.from(key, 'utf8')) {
    const char = String.fromCharCode(byte);
    name += KEPT_BYTE.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  if (WINDOWS_DEVICE.test(name))
    name = `%${name.charCodeAt(0).toString(16).toUpperCase()}${name.slice(1)}`;
  if (name.length > MAX_ENCODED_LENGTH) {
    throw new InvalidArgumentError(
      `${method}: the key ${JSON.stringify(key.slice(0, 40))}... is too long for a file name (${name.length} characters once encoded, at most ${MAX_ENCODED_LENGTH}); use a shorter key, such as a hash of it.`,
    );
  }
  return name;
}

/**
 * The key a session file name stands for, or `undefined` when the name is not one
 * `encodeSessionKey` produces (temp files, files someone else put in the directory).
 */
export function decodeSessionFileName(fileName: string): string | undefined {
  if (!fileName.endsWith(SESSION_FILE_SUFFIX)) return undefined;
  const name = fileName.slice(0, -SESSION_FILE_SUFFIX.length);
  if (!ENCODED_NAME.test(name)) return undefined;
  const bytes: number[] = [];
  for (let i = 0; i < name.length; i++) {
    if (name[i] === '%') {
      bytes.push(Number.parseInt(name.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(name.charCodeAt(i));
    }
  }
  try {
    const key = strictUtf8.decode(Uint8Array.from(bytes));
    // Only the canonical name of a key is the key's file: load(key) would never read another.
    return encodeSessionKey(key, 'decodeSessionFileName') === name ? key : undefined;
  } catch {
    return undefined;
  }
}
