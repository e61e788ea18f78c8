import type { Dirent } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError } from '../errors.js';
import type { Skill } from './skill.js';
import { parseSkillFile } from './skillFrontMatter.js';
import { SkillSet } from './skillSet.js';

/** How many files of one skill are listed at most, and how deep. */
const MAX_LISTED_FILES = 500;
const MAX_DEPTH = 8;

/**
 * Reads every skill folder directly under `dir` (a folder holding a `SKILL.md`; other folders
 * are passed over) into a `SkillSet`, what the ReActAgent option `skills` takes.
 * `dir` may also be one skill's own folder. Each `SKILL.md` starts with YAML front matter
 * giving `name` (the folder's name: 1–64 lowercase letters, digits, hyphens) and
 * `description`; its body is the instructions. Rejects with `InvalidArgumentError` naming
 * the file for a missing folder, malformed front matter, a name that is not the folder's,
 * or two skills of one name.
 *
 * @example
 * ```ts
 * const skills = await loadSkills('./skills');
 * const agent = new ReActAgent({ name: 'assistant', sysPrompt, model, skills });
 * ```
 */
export async function loadSkills(dir: string): Promise<SkillSet> {
  const root = await realDir(dir);
  if (await isFile(join(root, 'SKILL.md'))) return new SkillSet([await readSkill(root)]);
  const entries = await readdir(root, { withFileTypes: true });
  const skills: Skill[] = [];
  for (const entry of entries.sort(byName)) {
    const folder = join(root, entry.name);
    if (!(await isDir(folder)) || !(await isFile(join(folder, 'SKILL.md')))) continue;
    skills.push(await readSkill(await realpath(folder)));
  }
  return new SkillSet(skills);
}

async function readSkill(folder: string): Promise<Skill> {
  const file = join(folder, 'SKILL.md');
  const { name, description, body } = parseSkillFile(await readFile(file, 'utf8'), file);
  const folderName = folder.split(/[\\/]/).at(-1);
  if (folderName !== name)
    throw new InvalidArgumentError(
      `${file}: the skill is named "${name}" but its folder is "${folderName}"; a skill's name is its folder's name.`,
    );
  return { name, description, instructions: body, dir: folder, files: await listFiles(folder) };
}

async function listFiles(folder: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (dir: string, prefix: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH) return;
    const entries = (await readdir(dir, { withFileTypes: true })).sort(byName);
    for (const entry of entries) {
      if (files.length >= MAX_LISTED_FILES) return;
      const rel = prefix + entry.name;
      if (entry.isDirectory()) await walk(join(dir, entry.name), `${rel}/`, depth + 1);
      else if (rel !== 'SKILL.md' && (entry.isFile() || entry.isSymbolicLink())) files.push(rel);
    }
  };
  await walk(folder, '', 0);
  return files;
}

async function realDir(dir: string): Promise<string> {
  try {
    const real = await realpath(dir);
    if (await isDir(real)) return real;
  } catch {
    // reported below
  }
  throw new InvalidArgumentError(`loadSkills: ${dir} is not a folder of skills.`);
}

function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

async function isDir(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}
