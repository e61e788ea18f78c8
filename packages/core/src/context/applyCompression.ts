import type { Msg } from '../message/msg.js';

/**
 * The conversation after a compression: `summary` in place of the `replaced` messages, then
 * the rest of `messages` (what memory holds now; messages appended since the plan was made,
 * e.g. by a hub broadcast, are kept). Returns `undefined`, so the caller leaves memory as it
 * is, when `messages` no longer starts with `replaced` (memory was replaced or cleared
 * meanwhile). Pure: apply it with `memory.replace(next)`.
 */
export function applyCompression(
  messages: readonly Msg[],
  replaced: readonly Msg[],
  summary: Msg,
): Msg[] | undefined {
  if (replaced.length === 0 || messages.length < replaced.length) return undefined;
  for (let index = 0; index < replaced.length; index++) {
    if (messages[index]!.id !== replaced[index]!.id) return undefined;
  }
  return [summary, ...messages.slice(replaced.length)];
}
