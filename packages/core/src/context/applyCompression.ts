import type { Msg } from '../message/msg.js';

/**
 * The conversation after a compression: `summary` in place of the oldest of the `replaced`
 * messages, the others removed, every other message kept in order (the pinned input, and
 * messages appended since the plan was made, e.g. by a hub broadcast). Returns `undefined`,
 * so the caller leaves memory as it is, when some replaced message is no longer in
 * `messages`, in order (memory was replaced or cleared meanwhile). Pure: apply it with
 * `memory.replace(next)`.
 */
export function applyCompression(
  messages: readonly Msg[],
  replaced: readonly Msg[],
  summary: Msg,
): Msg[] | undefined {
  if (replaced.length === 0 || messages.length < replaced.length) return undefined;
  const next: Msg[] = [];
  let found = 0;
  for (const msg of messages) {
    if (found < replaced.length && msg.id === replaced[found]!.id) {
      if (found === 0) next.push(summary);
      found++;
    } else next.push(msg);
  }
  return found === replaced.length ? next : undefined;
}
