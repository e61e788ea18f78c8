import { createMsg, type Msg, withMetadata } from '../message/msg.js';

/** What `metadata.compressed` of a summary or drop marker records. */
export interface CompressionInfo {
  /** How many messages it replaced. */
  readonly count: number;
  /** What the request counted before. */
  readonly tokensBefore: number;
  /** What it counts with this message instead of the replaced ones. */
  readonly tokensAfter: number;
}

/**
 * The message that replaces `info.count` of the oldest messages with a summary of them:
 * user role, `name: 'system'` (framework-injected), `metadata.compressed = info`.
 */
export function summaryMsg(summary: string, info: CompressionInfo): Msg {
  return compressedMsg(`[Summary of ${plural(info.count)}]\n${summary.trim()}`, info);
}

/**
 * The marker that replaces `info.count` of the oldest messages when they are dropped
 * without a summary: user role, `name: 'system'`, `metadata.compressed = info`.
 */
export function dropMarkerMsg(info: CompressionInfo): Msg {
  return compressedMsg(
    `[${plural(info.count)} ${info.count === 1 ? 'was' : 'were'} dropped to fit the context window; what they said is no longer available. Ask the user if you need it again.]`,
    info,
  );
}

/** A copy of a summary or drop marker with its `metadata.compressed` replaced. */
export function withCompressionInfo(msg: Msg, info: CompressionInfo): Msg {
  return withMetadata(msg, { compressed: { ...info } });
}

function compressedMsg(text: string, info: CompressionInfo): Msg {
  return createMsg({
    name: 'system',
    role: 'user',
    content: text,
    metadata: { compressed: { ...info } },
  });
}

function plural(count: number): string {
  return count === 1 ? '1 earlier message' : `${count} earlier messages`;
}
