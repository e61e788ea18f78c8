import type { JsonValue } from '../json.js';

/**
 * Where a durable-execution engine records the steps of a call: each model request and each
 * tool run is one `step`. Give one to a call (`agent.call(input, { journal })`) and a
 * ReActAgent sends every model request and tool run of that call through it.
 *
 * An engine implements `step(name, run)` as its own journaled step (Restate's `ctx.run`, a
 * Temporal activity, a DBOS step): the first time, it runs `run` and records the value it
 * resolves with; when the engine retries the call after a crash, the same step (same name,
 * same place in the order) resolves with the recorded value without running `run` again.
 * The agent issues steps in a deterministic order with deterministic names, as such engines
 * require. Values are JSON.
 */
export interface StepJournal {
  /**
   * Runs `run` as the journaled step `name` and resolves with its value, or with the value
   * recorded by an earlier attempt of the same call (then `run` is not called). `run` never
   * rejects when called by the agent: failures are recorded as values.
   */
  step<T extends JsonValue>(name: string, run: () => Promise<T>): Promise<T>;
}
