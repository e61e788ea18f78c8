import { InvalidArgumentError } from '../errors.js';
import { checkOptions, optionNames } from '../options/checkOptions.js';
import { assertSessionKey, type Session } from '../state/session.js';

/**
 * Where a durable agent keeps its checkpoint: the `Session` and the key under which its
 * state and the progress of its unfinished call are saved (see `AgentBase`'s `durable`
 * option). Use a versioned session (`JsonFileSession`, `RedisSession`, `InMemorySession`)
 * so two processes never both advance one run.
 */
export interface DurableOptions {
  readonly session: Session;
  readonly key: string;
  /**
   * How many messages one sealed segment of a checkpoint holds (default 16): the memory's
   * messages are saved in blocks of this many, each once under a key of its own
   * (`<key>~seg.…`), so a checkpoint writes only the messages after the last full block
   * plus the call's progress, however long the conversation.
   */
  readonly segmentSize?: number;
}

/** The default `segmentSize` of a durable agent. */
export const DEFAULT_SEGMENT_SIZE = 16;

const KEYS = optionNames<DurableOptions>({ session: true, key: true, segmentSize: true });

/** Checks an agent's `durable` option; throws `InvalidArgumentError` or a TypeError naming the problem. */
export function checkDurableOptions(agentName: string, value: unknown): DurableOptions {
  const where = `Agent "${agentName}": durable`;
  if (typeof value !== 'object' || value === null) {
    throw new InvalidArgumentError(`${where} must be an object { session, key }.`);
  }
  checkOptions(value, KEYS, `${agentName}.durable`);
  const { session, key } = value as Partial<DurableOptions>;
  const methods = ['save', 'load', 'delete', 'list'] as const;
  if (
    typeof session !== 'object' ||
    session === null ||
    methods.some((m) => typeof session[m] !== 'function')
  ) {
    throw new InvalidArgumentError(
      `${where}.session must be a Session (save, load, delete, list), such as new JsonFileSession(dir).`,
    );
  }
  assertSessionKey(key, `${where}.key`);
  const { segmentSize } = value as DurableOptions;
  if (segmentSize !== undefined && (!Number.isInteger(segmentSize) || segmentSize < 1)) {
    throw new InvalidArgumentError(
      `${where}.segmentSize must be a whole number ≥ 1 (got ${String(segmentSize)}); it is how many messages one checkpoint segment holds.`,
    );
  }
  return { session, key, ...(segmentSize !== undefined && { segmentSize }) };
}
