import { InvalidArgumentError, type MemoryStore } from '@rxagent/core';

/**
 * ReActAgent option `offload`: tool results longer than `overChars` characters are stored
 * aside; the model sees their first `overChars` characters and a notice with the size and a
 * handle, and reads on with the `read_result({ handle, offset?, length? })` tool.
 */
export interface OffloadOptions {
  /** A result with more text than this is offloaded; also the longest page `read_result` returns. */
  readonly overChars: number;
  /**
   * Where offloaded texts go. Default: the agent's state (`stateDict().offload`, so they are
   * saved, loaded and checkpointed with it). A `MemoryStore` keeps them under the namespace
   * `['rxagent', 'offload', <agent name>]`, one item per handle (`{ text }`), and the agent's
   * state holds each only until its write resolved.
   */
  readonly store?: MemoryStore;
}

/** The checked `offload` option of `new ReActAgent(...)`. */
export function checkOffload(agent: string, value: unknown): OffloadOptions | undefined {
  if (value === undefined) return undefined;
  const where = `ReActAgent "${agent}": offload`;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new InvalidArgumentError(`${where} must be an object { overChars, store? }.`);
  const { overChars, store, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0)
    throw new InvalidArgumentError(
      `${where} has unknown option(s) ${unknown.join(', ')}; expected overChars and store.`,
    );
  if (typeof overChars !== 'number' || !Number.isInteger(overChars) || overChars < 1)
    throw new InvalidArgumentError(
      `${where}.overChars must be a positive integer, got ${String(overChars)}.`,
    );
  if (
    store !== undefined &&
    (store === null ||
      typeof store !== 'object' ||
      typeof (store as MemoryStore).put !== 'function' ||
      typeof (store as MemoryStore).get !== 'function')
  )
    throw new InvalidArgumentError(`${where}.store must be a MemoryStore (put, get, …).`);
  return { overChars, ...(store !== undefined && { store: store as MemoryStore }) };
}
