import { InvalidArgumentError } from '../errors.js';
import { checkOptions } from '../options/checkOptions.js';
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
}

const KEYS = ['session', 'key'] as const;

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
  return { session, key };
}
