/** One entry of a Redis Stream: its id and its field/value pairs. */
export interface StreamItem {
  /** The entry id (`<ms>-<seq>`). */
  readonly id: string;
  readonly fields: Record<string, string>;
}

/**
 * The raw entries (`[id, fields]`) of an XREAD / XREADGROUP reply, every stream's in order:
 * RESP2 `[[key, entries], ...]` or a RESP3 map of key to entries. `null` (nothing arrived
 * before BLOCK ran out) has none. A stream listed with no entries (XREADGROUP reading its
 * pending entries when none is left) has none either.
 */
export function entriesOfStreams(reply: unknown): unknown[] {
  if (reply === null || reply === undefined) return [];
  const streams: unknown[] = Array.isArray(reply)
    ? reply.map((stream: unknown) => (Array.isArray(stream) ? stream[1] : undefined))
    : reply instanceof Map
      ? [...reply.values()]
      : typeof reply === 'object'
        ? Object.values(reply)
        : [];
  return streams.flatMap((entries) => (Array.isArray(entries) ? entries : []));
}

/**
 * The raw entries of an XRANGE / XREVRANGE reply, or of the second element of an XAUTOCLAIM
 * reply: `[[id, fields], ...]`.
 */
export function entriesOfRange(reply: unknown): unknown[] {
  return Array.isArray(reply) ? reply : [];
}

/**
 * An entry's fields (`[field, value, ...]` in RESP2, a map in RESP3) as a record of strings
 * with no prototype, so a field named `__proto__` is just a field.
 */
export function fieldRecord(raw: unknown): Record<string, string> {
  const record: Record<string, string> = Object.create(null);
  if (Array.isArray(raw)) {
    for (let i = 0; i + 1 < raw.length; i += 2) record[String(raw[i])] = String(raw[i + 1]);
  } else if (raw instanceof Map) {
    for (const [key, value] of raw) record[String(key)] = String(value);
  } else if (typeof raw === 'object' && raw !== null) {
    for (const [key, value] of Object.entries(raw)) record[key] = String(value);
  }
  return record;
}

/**
 * The entries among `raw` that have an id and fields, in order. An entry whose fields are nil
 * (deleted while a consumer group still referenced it: XAUTOCLAIM, XREADGROUP of pending
 * entries) is skipped, as is anything that is not an entry.
 */
export function streamItems(raw: readonly unknown[]): StreamItem[] {
  const items: StreamItem[] = [];
  for (const entry of raw) {
    if (Array.isArray(entry) && typeof entry[0] === 'string' && entry[1] != null)
      items.push({ id: entry[0], fields: fieldRecord(entry[1]) });
  }
  return items;
}
