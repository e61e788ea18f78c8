import { InvalidArgumentError, isJsonObject, type Msg } from '@rxagent/core';

/** One hub entry of a topic's stream: who sent it (`""` for a broadcast) and the Msg. */
export interface StreamEntry {
  /** The Redis Stream id (`<ms>-<seq>`), increasing in stream order. */
  readonly id: string;
  /** The name of the participant whose reply this is, or `""` for `broadcast()`. */
  readonly from: string;
  readonly msg: Msg;
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/** An entry of a hub's stream that is not a hub entry: skipped, with the reason. */
export interface ForeignEntry {
  readonly id: string;
  readonly error: InvalidArgumentError;
}

/** The XADD field/value pairs of an entry. */
export function entryFields(from: string, msg: Msg): string[] {
  return ['v', '1', 'from', from, 'msg', JSON.stringify(msg)];
}

/**
 * The entries of an XREAD / XRANGE reply for one stream, in order. Accepts RESP2 arrays and
 * RESP3 maps. An entry that is not an rxagent hub entry is returned as a `ForeignEntry` in
 * its place, so one foreign entry never stops delivery. Throws `InvalidArgumentError` when
 * the reply is not a stream reply at all.
 */
export function parseEntries(reply: unknown, topic: string): Array<StreamEntry | ForeignEntry> {
  const raw = streamMessages(reply);
  return raw.map((item) => parseEntry(item, topic));
}

function streamMessages(reply: unknown): unknown[] {
  if (reply === null || reply === undefined) return [];
  if (Array.isArray(reply)) {
    // XREAD (RESP2): [[key, messages]]; XRANGE: messages.
    const first: unknown = reply[0];
    if (
      Array.isArray(first) &&
      first.length === 2 &&
      Array.isArray(first[1]) &&
      !Array.isArray(first[0])
    ) {
      return reply.flatMap((stream: unknown) =>
        Array.isArray(stream) ? (stream[1] as unknown[]) : [],
      );
    }
    return reply;
  }
  const values = reply instanceof Map ? [...reply.values()] : Object.values(reply as object);
  return values.flatMap((messages: unknown) => (Array.isArray(messages) ? messages : []));
}

function parseEntry(item: unknown, topic: string): StreamEntry | ForeignEntry {
  if (!Array.isArray(item) || typeof item[0] !== 'string') {
    throw new InvalidArgumentError(
      `Hub topic ${JSON.stringify(topic)}: Redis answered XREAD with something that is not a stream entry; is the key a stream?`,
    );
  }
  const id = item[0];
  const fields = toRecord(item[1]);
  if (fields['v'] !== '1')
    return foreign(topic, id, `it has format ${JSON.stringify(fields['v'] ?? null)}, not 1`);
  const from = fields['from'];
  if (typeof from !== 'string') return foreign(topic, id, 'it has no "from" field');
  let msg: unknown;
  try {
    msg = JSON.parse(fields['msg'] ?? '');
  } catch {
    return foreign(topic, id, 'its "msg" field is not JSON');
  }
  if (!isMsg(msg)) return foreign(topic, id, 'its "msg" field is not a Msg');
  return { id, from, msg };
}

function toRecord(fields: unknown): Record<string, string> {
  const record: Record<string, string> = Object.create(null);
  if (Array.isArray(fields)) {
    for (let i = 0; i + 1 < fields.length; i += 2)
      record[String(fields[i])] = String(fields[i + 1]);
  } else if (fields instanceof Map) {
    for (const [key, value] of fields) record[String(key)] = String(value);
  } else if (typeof fields === 'object' && fields !== null) {
    for (const [key, value] of Object.entries(fields)) record[key] = String(value);
  }
  return record;
}

function isMsg(value: unknown): value is Msg {
  return (
    isJsonObject(value) &&
    typeof value['id'] === 'string' &&
    typeof value['name'] === 'string' &&
    typeof value['role'] === 'string' &&
    ROLES.has(value['role']) &&
    Array.isArray(value['content']) &&
    value['content'].every(isJsonObject) &&
    isJsonObject(value['metadata']) &&
    typeof value['timestamp'] === 'string'
  );
}

function foreign(topic: string, id: string, problem: string): ForeignEntry {
  const error = new InvalidArgumentError(
    `Entry ${id} of hub topic ${JSON.stringify(topic)} was skipped: ${problem}. Only RedisMsgHub should write to a hub's stream.`,
  );
  return { id, error };
}
