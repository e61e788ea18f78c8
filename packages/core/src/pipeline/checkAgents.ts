import { AgentBase } from '../agent/agentBase.js';
import { InvalidArgumentError } from '../errors.js';

/**
 * A copy of a pipeline's agent list, checked: an array of AgentBase instances, non-empty
 * unless `allowEmpty`. Throws `InvalidArgumentError` naming the bad item.
 */
export function checkAgents(
  agents: unknown,
  where: string,
  options: { readonly allowEmpty: boolean },
): AgentBase[] {
  if (!Array.isArray(agents)) {
    throw new InvalidArgumentError(
      `${where}: agents must be an array of agents (got ${typeof agents}).`,
    );
  }
  if (agents.length === 0 && !options.allowEmpty) {
    throw new InvalidArgumentError(`${where}: agents is empty; pass at least one agent.`);
  }
  agents.forEach((agent, index) => {
    if (!(agent instanceof AgentBase)) {
      throw new InvalidArgumentError(
        `${where}: agents[${index}] is not an agent (an AgentBase instance).`,
      );
    }
  });
  return [...(agents as AgentBase[])];
}
