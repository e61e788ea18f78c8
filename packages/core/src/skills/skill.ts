/** One Agent Skill: a folder with a `SKILL.md` (front matter, then instructions) and its files. */
export interface Skill {
  /** From the front matter; the folder's name. */
  readonly name: string;
  /** From the front matter: what the skill does and when to use it (shown in the catalog). */
  readonly description: string;
  /** The body of `SKILL.md` after the front matter. */
  readonly instructions: string;
  /** The skill's folder, as an absolute path with links resolved. */
  readonly dir: string;
  /** The other files of the folder, relative paths with `/`, sorted. */
  readonly files: readonly string[];
}
