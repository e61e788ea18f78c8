import { z } from 'zod';
import { type Tool, tool } from '../tool/tool.js';
import type { SkillSet } from './skillSet.js';

/** The names of the skill tools. */
export const SKILL_TOOL_NAMES = ['load_skill', 'read_skill_file'] as const;

/**
 * The tools over `skills`: `load_skill({ name })` answers a skill's instructions and lists its
 * files; `read_skill_file({ name, path })` answers one file's text, never one outside the
 * skill's folder. An unknown name or a refused path is an error result the model reads.
 */
export function skillTools(skills: SkillSet): Tool[] {
  const loadSkill = tool({
    name: 'load_skill',
    description:
      'Loads the instructions of one of your skills (listed in the system prompt) and lists its files. Call it before doing a task the skill covers.',
    parameters: z.object({ name: z.string().describe('The skill name, as listed.') }),
    execute: ({ name }) => skills.load(name),
  });
  const readSkillFile = tool({
    name: 'read_skill_file',
    description:
      "Reads one file of a skill (a path listed by load_skill, relative to the skill's folder).",
    parameters: z.object({
      name: z.string().describe('The skill name.'),
      path: z.string().describe("The file's path inside the skill, e.g. reference/forms.md."),
    }),
    execute: ({ name, path }, { signal }) => skills.readFile(name, path, signal),
  });
  return [loadSkill, readSkillFile] as unknown as Tool[];
}
