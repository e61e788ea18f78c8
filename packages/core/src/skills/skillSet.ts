import { open, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { InvalidArgumentError } from '../errors.js';
import type { Skill } from './skill.js';

/** The largest skill file `readFile` returns, in bytes. */
export const MAX_SKILL_FILE_BYTES = 1_000_000;

/**
 * The skills an agent may use (what `loadSkills(dir)` returns; the ReActAgent option
 * `skills`). `catalog()` is the system-prompt section naming each skill, byte-stable for a
 * given set; `load` and `readFile` serve the `load_skill` and `read_skill_file` tools.
 */
export class SkillSet {
  readonly #byName: ReadonlyMap<string, Skill>;
  readonly #catalog: string;

  /** Skills sorted by name; two of one name are an `InvalidArgumentError`. */
  constructor(skills: readonly Skill[]) {
    const sorted = [...skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const byName = new Map<string, Skill>();
    for (const skill of sorted) {
      const twin = byName.get(skill.name);
      if (twin)
        throw new InvalidArgumentError(
          `Two skills are named "${skill.name}" (${twin.dir} and ${skill.dir}); rename one.`,
        );
      byName.set(skill.name, skill);
    }
    this.#byName = byName;
    this.#catalog = catalogText(sorted);
  }

  /** Every skill, sorted by name. */
  get skills(): readonly Skill[] {
    return [...this.#byName.values()];
  }

  /** The skill named `name`, or `undefined`. */
  get(name: string): Skill | undefined {
    return this.#byName.get(name);
  }

  /**
   * The system-prompt section listing each skill's name and description, sorted by name:
   * the same bytes for the same skills, so a prompt cache keeps hitting. Empty without skills.
   */
  catalog(): string {
    return this.#catalog;
  }

  /** The skill's instructions and the list of its files, as `load_skill` answers. */
  load(name: string): string {
    const skill = this.#require(name);
    const files =
      skill.files.length === 0
        ? 'The skill has no other files.'
        : `Files of the skill (read one with read_skill_file):\n${skill.files.map((f) => `- ${f}`).join('\n')}`;
    return `# Skill: ${skill.name}\n\n${skill.instructions}\n\n${files}`;
  }

  /**
   * The text of `path` inside the skill's folder. Refused (an `InvalidArgumentError` saying
   * why): an unknown skill, an absolute path, a path that leaves the folder, also through a
   * link (resolved before the check), a folder, a missing file, more than
   * `MAX_SKILL_FILE_BYTES`, or bytes that are not text.
   */
  async readFile(name: string, path: string, signal?: AbortSignal): Promise<string> {
    const skill = this.#require(name);
    if (path === '' || isAbsolute(path) || path.includes('\0'))
      throw new InvalidArgumentError(
        `read_skill_file: ${JSON.stringify(path)} is not a relative path inside skill "${name}".`,
      );
    const target = await realTarget(resolve(skill.dir, path), name, path);
    const rel = relative(skill.dir, target);
    if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel))
      throw new InvalidArgumentError(
        `read_skill_file: ${JSON.stringify(path)} is outside skill "${name}"; only its own files can be read.`,
      );
    signal?.throwIfAborted();
    return readText(target, name, path);
  }

  #require(name: string): Skill {
    const skill = this.#byName.get(name);
    if (skill) return skill;
    const known = [...this.#byName.keys()].join(', ') || 'none';
    throw new InvalidArgumentError(
      `There is no skill named ${JSON.stringify(name)} (skills: ${known}).`,
    );
  }
}

async function realTarget(path: string, name: string, given: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    throw new InvalidArgumentError(
      `read_skill_file: skill "${name}" has no file ${JSON.stringify(given)}.`,
    );
  }
}

async function readText(target: string, name: string, given: string): Promise<string> {
  const handle = await open(target, 'r');
  try {
    const stats = await handle.stat();
    if (!stats.isFile())
      throw new InvalidArgumentError(
        `read_skill_file: ${JSON.stringify(given)} in skill "${name}" is not a file.`,
      );
    if (stats.size > MAX_SKILL_FILE_BYTES)
      throw new InvalidArgumentError(
        `read_skill_file: ${JSON.stringify(given)} in skill "${name}" has ${stats.size} bytes; at most ${MAX_SKILL_FILE_BYTES} can be read.`,
      );
    const bytes = await handle.readFile();
    if (bytes.includes(0))
      throw new InvalidArgumentError(
        `read_skill_file: ${JSON.stringify(given)} in skill "${name}" is not a text file.`,
      );
    return bytes.toString('utf8');
  } finally {
    await handle.close();
  }
}

function catalogText(skills: readonly Skill[]): string {
  if (skills.length === 0) return '';
  const lines = skills.map((skill) => `- ${skill.name}: ${skill.description.replace(/\s+/g, ' ')}`);
  return [
    '## Skills',
    'These skills hold instructions for particular tasks. When a task matches a skill, call load_skill with its name first and follow what it says; read_skill_file reads a file the skill mentions.',
    ...lines,
  ].join('\n');
}
