import { InvalidArgumentError, SkillSet, skillTools } from '@rxagent/core';
import type { AgentPart } from '../parts/agentPart.js';

/**
 * The `skills` option as a part: the catalog appended to the system prompt (built once, so
 * byte-stable) and the tools `load_skill` and `read_skill_file`. None without skills.
 */
export function skillsPart(options: {
  readonly name: string;
  readonly skills?: SkillSet | undefined;
}): AgentPart | undefined {
  const skills = agentSkills(options);
  if (skills === undefined) return undefined;
  return { name: 'skills', tools: skillTools(skills), promptSection: skills.catalog() };
}

/** The checked `skills` option of `new ReActAgent(options)`; `undefined` when it holds none. */
function agentSkills(options: {
  readonly name: string;
  readonly skills?: SkillSet | undefined;
}): SkillSet | undefined {
  const { skills } = options;
  if (skills === undefined) return undefined;
  if (!(skills instanceof SkillSet))
    throw new InvalidArgumentError(
      `ReActAgent "${options.name}": skills must be what loadSkills(dir) returns (a SkillSet).`,
    );
  return skills.skills.length > 0 ? skills : undefined;
}
