import type { Hook, HookEventType } from '@rxagent/core';

/** Every event of a turn except the per-chunk ones. */
export const TURN_EVENTS: readonly HookEventType[] = [
  'preCall',
  'postCall',
  'preReasoning',
  'postReasoning',
  'preActing',
  'postActing',
];

/** A synchronous no-op hook listening to `events` (all when absent). */
export function noopHook(events?: readonly HookEventType[]): Hook {
  return { name: 'noop', onEvent: () => undefined, ...(events && { events: [...events] }) };
}
