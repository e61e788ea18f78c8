import { AgentBase, InvalidArgumentError, type Msg } from '@rxagent/core';

/** One agent or several, as an array. */
export function toArray(agents: AgentBase | readonly AgentBase[]): readonly AgentBase[] {
  return agents instanceof AgentBase ? [agents] : agents;
}

/** `msg` as an array of Msgs; throws `InvalidArgumentError` naming a non-Msg item. */
export function toMsgs(msg: Msg | readonly Msg[], where: string): Msg[] {
  const msgs = Array.isArray(msg) ? [...(msg as readonly Msg[])] : [msg as Msg];
  msgs.forEach((one, index) => {
    if (
      typeof one !== 'object' ||
      one === null ||
      typeof one.role !== 'string' ||
      !Array.isArray(one.content)
    ) {
      throw new InvalidArgumentError(
        `${where}: item ${index} is not a Msg; create messages with userMsg() or createMsg().`,
      );
    }
  });
  return msgs;
}

/**
 * `agents` minus those already in `existing`; throws `InvalidArgumentError` for a non-agent
 * or for two different agents with one name (a Redis hub tells agents apart by name).
 */
export function uniqueAgents(
  agents: unknown,
  where: string,
  existing: readonly AgentBase[],
): AgentBase[] {
  if (!Array.isArray(agents))
    throw new InvalidArgumentError(`${where}: expected an array of agents.`);
  const names = new Map(existing.map((agent) => [agent.name, agent]));
  const result: AgentBase[] = [];
  agents.forEach((agent: unknown, index) => {
    if (!(agent instanceof AgentBase)) {
      throw new InvalidArgumentError(
        `${where}: item ${index} is not an agent (an AgentBase instance).`,
      );
    }
    const same = names.get(agent.name);
    if (same === agent) return;
    if (same !== undefined) {
      throw new InvalidArgumentError(
        `${where}: two participants are named ${JSON.stringify(agent.name)}; a Redis hub tells agents apart by name, so give each a unique name.`,
      );
    }
    names.set(agent.name, agent);
    result.push(agent);
  });
  return result;
}
