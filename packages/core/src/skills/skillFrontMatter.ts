import { InvalidArgumentError } from '../errors.js';

/** What the front matter of a `SKILL.md` holds that rxagent reads. */
export interface SkillFrontMatter {
  readonly name: string;
  readonly description: string;
  /** The instructions: everything after the closing `---`, trimmed. */
  readonly body: string;
}

const FENCE = /^---[ \t]*$/;
const KEY = /^([A-Za-z][\w-]*)[ \t]*:(.*)$/;
// The Agent Skills format: 1–64 lowercase letters, digits and single hyphens inside.
const SKILL_NAME = /^[a-z0-9](?:[a-z0-9]|-(?!-)){0,62}[a-z0-9]$|^[a-z0-9]$/;

/**
 * Reads the YAML front matter of a `SKILL.md` (between two `---` lines at its top) and the
 * instructions after it. Only top-level scalar keys are read: plain, single- or
 * double-quoted values and `|` / `>` blocks; nested maps (`metadata:`) are skipped. Throws
 * `InvalidArgumentError` naming `file` when the front matter is missing or `name` /
 * `description` is missing, empty or malformed.
 */
export function parseSkillFile(text: string, file: string): SkillFrontMatter {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (!FENCE.test(lines[0] ?? ''))
    throw new InvalidArgumentError(
      `${file}: a SKILL.md starts with YAML front matter between two "---" lines (name and description).`,
    );
  const end = lines.findIndex((line, index) => index > 0 && FENCE.test(line));
  if (end < 0)
    throw new InvalidArgumentError(`${file}: the front matter has no closing "---" line.`);
  const fields = readScalars(lines.slice(1, end), file);
  const name = required(fields, 'name', file);
  if (!SKILL_NAME.test(name))
    throw new InvalidArgumentError(
      `${file}: the skill name ${JSON.stringify(name)} must be 1–64 lowercase letters, digits and single hyphens, not starting or ending with one.`,
    );
  const description = required(fields, 'description', file);
  if (description.length > 1024)
    throw new InvalidArgumentError(
      `${file}: the description has ${description.length} characters; at most 1024 are allowed.`,
    );
  return {
    name,
    description,
    body: lines
      .slice(end + 1)
      .join('\n')
      .trim(),
  };
}

function required(fields: Map<string, string>, key: string, file: string): string {
  const value = fields.get(key)?.trim();
  if (!value)
    throw new InvalidArgumentError(
      `${file}: the front matter has no "${key}" (a non-empty string).`,
    );
  return value;
}

function readScalars(lines: readonly string[], file: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '' || line.trimStart().startsWith('#') || /^\s/.test(line)) continue;
    const match = KEY.exec(line);
    if (!match)
      throw new InvalidArgumentError(
        `${file}: front matter line ${i + 2} is not "key: value": ${JSON.stringify(line.slice(0, 80))}.`,
      );
    const [, key = '', rest = ''] = match;
    const raw = rest.trim();
    if (raw === '|' || raw === '>' || raw === '|-' || raw === '>-') {
      const block: string[] = [];
      while (i + 1 < lines.length && (/^\s/.test(lines[i + 1] ?? '') || lines[i + 1] === '')) {
        block.push((lines[++i] ?? '').trim());
      }
      fields.set(
        key,
        raw.startsWith('|') ? block.join('\n') : block.join(' ').replace(/\s+/g, ' '),
      );
    } else {
      fields.set(key, unquote(raw, file, i + 2));
    }
  }
  return fields;
}

function unquote(raw: string, file: string, line: number): string {
  if (raw.startsWith('"')) {
    try {
      const value: unknown = JSON.parse(raw);
      if (typeof value === 'string') return value;
    } catch {
      // reported below
    }
    throw new InvalidArgumentError(
      `${file}: front matter line ${line} has an unclosed "…" string.`,
    );
  }
  if (raw.startsWith("'")) {
    if (raw.length < 2 || !raw.endsWith("'"))
      throw new InvalidArgumentError(
        `${file}: front matter line ${line} has an unclosed '…' string.`,
      );
    return raw.slice(1, -1).replaceAll("''", "'");
  }
  // A plain scalar ends before a comment.
  return raw.replace(/\s+#.*$/, '');
}
