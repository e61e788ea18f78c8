import type { JsonObject } from '../json.js';

/**
 * Something with JSON state an agent captures in its `stateDict()`: memory, a toolkit, a
 * counter. `loadStateDict` validates before it changes anything and throws a `StateError`
 * naming the bad path.
 */
export interface StateModule {
  stateDict(): JsonObject;
  loadStateDict(state: JsonObject): void;
}

/** The version of the state format that `AgentBase.stateDict()` writes. */
export const STATE_VERSION = 1;
