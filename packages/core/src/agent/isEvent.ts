import type { AgentEvent } from './agentEvent.js';

/** The `stream()` event of a given `type`. */
export type AgentEventOf<T extends AgentEvent['type']> = Extract<AgentEvent, { type: T }>;

/**
 * Narrows a `stream()` event by its `type`, so a `filter` keeps the event's own fields typed.
 *
 * @example
 * ```ts
 * agent.stream('Hi').pipe(filter((e) => isEvent(e, 'reasoningChunk')), map((e) => e.delta.text));
 * ```
 */
export function isEvent<T extends AgentEvent['type']>(
  event: AgentEvent,
  type: T,
): event is AgentEventOf<T> {
  return event.type === type;
}
