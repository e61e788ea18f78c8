import { freezeMsg, InvalidArgumentError, isJsonObject, type Msg } from '@rxagent/core';
import { entriesOfStreams, fieldRecord } from '../streamReply.js';

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
 * The entries of an XREAD reply for one stream, in order. Accepts RESP2 arrays and
 * RESP3 maps. An entry that is not an rxagent hub entry is returned as a `ForeignEntry` in
 * its place, so one foreign entry never stops delivery. Throws `InvalidArgumentError` when
 * the reply is not a stream reply at all.
 */
export function parseEntries(reply: unknown, topic: string): Array<StreamEntry | ForeignEntry> {
  const raw = entriesOfStreams(reply);
  return raw.map((item) => parseEntry(item, topic));
}

function parseEntry(item: unknown, topic: string): StreamEntry | ForeignEntry {
  if (!Array.isArray(item) || typeof item[0] !== 'string') {
    throw new InvalidArgumentError(
      `Hub topic ${JSON.stringify(topic)}: Redis answered XREAD with something that is not a stream entry; is the key a stream?`,
    );
  }
  const id = item[0];
  const fields = fieldRecord(item[1]);
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
  // Frozen like every Msg a hub delivers.
  return { id, from, msg: freezeMsg(msg) };
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
