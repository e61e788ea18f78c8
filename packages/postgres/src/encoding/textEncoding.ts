import { InvalidArgumentError } from '@rxagent/core';

/**
 * PostgreSQL `text` cannot hold the NUL character, which a session key, a namespace segment
 * or a memory key may contain. These encode such a string reversibly: `%` becomes `%25` and
 * NUL `%00`; every other string is stored as it is (readable in `psql`). Internal.
 */
export function encodeText(text: string): string {
  if (!text.includes('%') && !text.includes('\0')) return text;
  return text.replace(/%/g, '%25').replace(/\0/g, '%00');
}

/** The string `encodeText` encoded. */
export function decodeText(stored: string): string {
  if (!stored.includes('%')) return stored;
  return stored.replace(/%(25|00)/g, (_, code: string) => (code === '25' ? '%' : '\0'));
}

/**
 * The JSON text of a value for a `jsonb` column, which cannot hold NUL either: NUL in its
 * strings and property names becomes U+FFFD. Only equality filters read that column, and
 * the filter is mapped the same way, so it still matches (the exact value is kept as text).
 */
export function jsonbText(value: unknown): string {
  const json = JSON.stringify(value);
  if (!json.includes('\\u0000')) return json;
  return JSON.stringify(value, (_key, inner: unknown) => withoutNul(inner));
}

function withoutNul(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\0/g, '\uFFFD');
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) out[name.replace(/\0/g, '\uFFFD')] = inner;
  return out;
}

/**
 * The most UTF-8 bytes of a stored key (with its namespace, for a memory item): a B-tree
 * entry of PostgreSQL holds at most about 2,700 bytes, and a durable run's segment keys add
 * about 60 to the key they belong to.
 */
export const MAX_KEY_BYTES = 2_000;

/** Throws `InvalidArgumentError` when `parts`, stored, take more than `MAX_KEY_BYTES`. Internal. */
export function assertKeySize(parts: readonly string[], method: string): void {
  let bytes = 0;
  for (const part of parts) bytes += Buffer.byteLength(encodeText(part), 'utf8');
  if (bytes <= MAX_KEY_BYTES) return;
  throw new InvalidArgumentError(
    `${method}: the key takes ${bytes} bytes in UTF-8, more than the ${MAX_KEY_BYTES} PostgreSQL's index holds here; use a shorter key (a hash of a long one, say).`,
  );
}
