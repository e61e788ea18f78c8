import type { JsonObject, ReadToolDecisions, ToolDecisionMetadata } from '@rxagent/core';

/**
 * Decisions read from a `toolDecisions()` Msg; `all` when the call was resumed with no input
 * (every pending call approved).
 */
export interface Decisions extends ReadToolDecisions {
  readonly all?: boolean;
}

/**
 * What was decided about one call before it runs: refused with `deny` (the reason), run with
 * `input` instead of the model's arguments, and the `decision` its result Msg records.
 */
export interface Resolution {
  readonly deny?: string;
  readonly input?: JsonObject;
  readonly decision?: ToolDecisionMetadata;
}

/** Resolutions by call id (JSON: kept in a durable checkpoint). */
export type Resolutions = Readonly<Record<string, Resolution>>;

/** The reason recorded for a call that needs approval and got no decision. */
export const NO_DECISION = 'no decision';
