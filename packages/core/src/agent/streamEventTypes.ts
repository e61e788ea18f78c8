import { EVENT_TYPES } from '../hooks/hookRegistry.js';

/**
 * The event types of `stream({ events })` as a set; a TypeError naming the bad entry when
 * `events` is not an array of hook event types.
 */
export function streamEventTypes(where: string, events: unknown): ReadonlySet<string> {
  if (!Array.isArray(events)) {
    throw new TypeError(`${where}: options.events must be an array of hook event types.`);
  }
  for (const type of events) {
    if (typeof type !== 'string' || !Object.hasOwn(EVENT_TYPES, type)) {
      throw new TypeError(
        `${where}: options.events names unknown event type ${JSON.stringify(type)}; use some of ${Object.keys(EVENT_TYPES).join(', ')}.`,
      );
    }
  }
  return new Set(events as readonly string[]);
}
