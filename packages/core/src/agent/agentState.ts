import { isJsonObject, type JsonObject } from '../json.js';
import { type LoadStateOptions, renamedFrom } from '../state/stateOwner.js';
import type { StateRegistry } from '../state/stateRegistry.js';

/**
 * Loads `state` into the agent `agentName`'s `registry` (see `AgentBase.loadStateDict`); a
 * state saved by another agent loads only with `options.rename`, and then `rename(savedName)`
 * makes that agent's turns this one's.
 */
export function loadAgentState(
  registry: StateRegistry,
  agentName: string,
  state: JsonObject,
  options: LoadStateOptions,
  rename: (from: string) => void,
): void {
  const from = isJsonObject(state) ? renamedFrom(state, agentName, options) : undefined;
  registry.load(state);
  if (from !== undefined) rename(from);
}
