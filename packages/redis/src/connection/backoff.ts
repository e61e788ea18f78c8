/** The first reconnect delay, in milliseconds. */
export const FIRST_RETRY_MS = 50;
/** The longest reconnect delay, in milliseconds. */
export const MAX_RETRY_MS = 1_000;

/**
 * The delay before reconnect attempt `attempt` (0-based): exponential from 50 ms, capped at
 * 1 s, with up to 20% jitter so many processes that lost one server do not reconnect in step.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(attempt, 16));
  return Math.round(base * (1 - 0.2 * random()));
}
