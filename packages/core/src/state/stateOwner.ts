import { StateError } from '../errors.js';
import type { JsonObject } from '../json.js';
import { checkOptions } from '../options/checkOptions.js';

/** The key of a state dict that records the name of the agent that saved it. */
export const AGENT_NAME_KEY = 'agentName';

/** Options of `AgentBase.loadStateDict`. */
export interface LoadStateOptions {
  /**
   * Load a state saved by an agent of another name, making that agent's own turns (its
   * replies, tool calls and results) this agent's: without it such a load is a `StateError`.
   */
  readonly rename?: boolean;
}

/**
 * The name of the agent that saved `state`, when it differs from `agentName` (the agent
 * loading it), else `undefined`. A state saved by another agent is a `StateError` (path
 * `agentName`) naming both agents, unless `options.rename`; a state without the key (saved
 * before it was recorded) loads as it is. Memory attributes turns by name: loaded under
 * another name, the saved agent's replies would be sent as another speaker's words and its
 * tool calls dropped from every request.
 */
export function renamedFrom(
  state: JsonObject,
  agentName: string,
  options: LoadStateOptions,
): string | undefined {
  checkOptions(options, ['rename'], `${agentName}.loadStateDict()`);
  const saved = state[AGENT_NAME_KEY];
  if (saved === undefined || saved === agentName) return undefined;
  if (typeof saved !== 'string') {
    throw new StateError(
      `${agentName}: state.agentName must be the name of the agent that saved it, got ${JSON.stringify(saved)}.`,
      AGENT_NAME_KEY,
    );
  }
  if (options.rename === true) return saved;
  throw new StateError(
    `${agentName}: this state was saved by the agent "${saved}", not "${agentName}": its memory holds ${JSON.stringify(saved)}'s own turns, which "${agentName}" would take for another speaker's. Load it into an agent named "${saved}", or pass { rename: true } to make them "${agentName}"'s.`,
    AGENT_NAME_KEY,
  );
}
