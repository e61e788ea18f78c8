import { EVENT_TYPES } from '../hooks/hookRegistry.js';

/** The sets of arrays given before (an eval runner passes one frozen array to every run). */
const known = new WeakMap<readonly unknown[], ReadonlySet<string>>();

/**
 * The event types of `stream({ events })` as a set; a TypeError naming the bad entry when
 * `events` is not an array of hook event types. A frozen array's set is made once.
 */
export function streamEventTypes(where: string, events: unknown): ReadonlySet<string> {
  if (!Array.isArray(events)) {
    throw new TypeError(`${where}: options.events must be an array of hook event types.`);
  }
  const cached = known.get(events);
  if (cached !== undefined) return cached;
  for (const type of events) {
    if (typeof type !== 'string' || !Object.hasOwn(EVENT_TYPES, type)) {
      throw new TypeError(
        `${where}: options.events names unknown event type ${JSON.stringify(type)}; use some of ${Object.keys(EVENT_TYPES).join(', ')}.`,
      );
    }
  }
  const types = new Set<string>(events as readonly string[]);
  // Only a frozen array is sure to name the same types next time.
  if (Object.isFrozen(events)) known.set(events, types);
  return types;
}
