import type { JsonObject } from '../json.js';

/**
 * Something with JSON state an agent captures in its `stateDict()`: memory, a toolkit, a
 * counter. `loadStateDict` validates before it changes anything and throws a `StateError`
 * naming the bad path.
 */
export interface StateModule {
  stateDict(): JsonObject;
  loadStateDict(state: JsonObject): void;
  /**
   * The state as a durable checkpoint takes it at each step boundary: the same JSON as
   * `stateDict()`, which may share objects the module never changes in place (a memory's
   * stored messages) instead of copying them, so a checkpoint can tell an unchanged sealed
   * segment by its objects without serialising it. Optional; `stateDict()` when absent.
   * Its result is only read, never changed.
   */
  checkpointDict?(): JsonObject;
}

/** The version of the state format that `AgentBase.stateDict()` writes. */
export const STATE_VERSION = 1;
