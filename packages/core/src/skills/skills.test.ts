import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors.js';
import { Toolkit } from '../tool/toolkit.js';
import { loadSkills } from './loadSkills.js';
import { parseSkillFile } from './skillFrontMatter.js';
import { skillTools } from './skillTools.js';

let root: string;

async function writeSkill(
  name: string,
  front: string,
  body: string,
  files: Record<string, string> = {},
) {
  const dir = join(root, 'skills', name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'SKILL.md'), `---\n${front}\n---\n${body}\n`);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'rxagent-skills-'));
  await writeSkill(
    'refunds',
    'name: refunds\ndescription: "How to refund an order: checks, limits."',
    'Check the order first.\nThen read reference/limits.md.',
    {
      'reference/limits.md': 'Refunds over 500 EUR need a manager.',
      'scripts/check.sh': 'echo ok',
    },
  );
  await writeSkill(
    'pdf-forms',
    'name: pdf-forms\ndescription: >\n  Fill in PDF forms\n  with care.\nmetadata:\n  version: 2',
    'Use the form fields.',
  );
  await writeFile(join(root, 'secret.txt'), 'TOP SECRET');
  await mkdir(join(root, 'skills', 'not-a-skill'), { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('loadSkills', () => {
  it('reads each skill folder, sorted by name, with its instructions and files', async () => {
    const skills = await loadSkills(join(root, 'skills'));
    expect(skills.skills.map((s) => s.name)).toEqual(['pdf-forms', 'refunds']);
    const refunds = skills.get('refunds')!;
    expect(refunds.description).toBe('How to refund an order: checks, limits.');
    expect(refunds.instructions).toBe('Check the order first.\nThen read reference/limits.md.');
    expect(refunds.files).toEqual(['reference/limits.md', 'scripts/check.sh']);
    expect(skills.get('pdf-forms')!.description).toBe('Fill in PDF forms with care.');
  });

  it('makes a catalog that is the same bytes however often it is built', async () => {
    const a = (await loadSkills(join(root, 'skills'))).catalog();
    const b = (await loadSkills(join(root, 'skills'))).catalog();
    expect(a).toBe(b);
    expect(a).toContain('- pdf-forms: Fill in PDF forms with care.');
    expect(a.indexOf('pdf-forms')).toBeLessThan(a.indexOf('- refunds'));
  });

  it('takes one skill folder too', async () => {
    const skills = await loadSkills(join(root, 'skills', 'refunds'));
    expect(skills.skills.map((s) => s.name)).toEqual(['refunds']);
  });

  it('rejects a missing folder, a name that is not the folder name, and bad front matter, naming the file', async () => {
    await expect(loadSkills(join(root, 'nope'))).rejects.toThrow(/is not a folder of skills/);
    await writeSkill('billing', 'name: payments\ndescription: x', 'body');
    await expect(loadSkills(join(root, 'skills'))).rejects.toThrow(
      /billing.SKILL\.md: the skill is named "payments" but its folder is "billing"/,
    );
  });
});

describe('parseSkillFile', () => {
  it.each([
    ['no front matter', 'hello', /starts with YAML front matter/],
    ['no closing fence', '---\nname: a\n', /no closing/],
    ['no name', '---\ndescription: d\n---\n', /no "name"/],
    ['no description', '---\nname: a\n---\n', /no "description"/],
    ['a bad name', '---\nname: Bad_Name\ndescription: d\n---\n', /lowercase letters/],
    ['a double hyphen', '---\nname: a--b\ndescription: d\n---\n', /single hyphens/],
    ['an unclosed string', '---\nname: "a\ndescription: d\n---\n', /unclosed/],
    [
      'a line that is not key: value',
      '---\nname: a\njust words\n---\n',
      /line 3 is not "key: value"/,
    ],
  ])('rejects %s', (_, text, message) => {
    expect(() => parseSkillFile(text, 'x/SKILL.md')).toThrow(InvalidArgumentError);
    expect(() => parseSkillFile(text, 'x/SKILL.md')).toThrow(message);
  });

  it('reads quoted values and drops comments of plain ones', () => {
    const parsed = parseSkillFile(
      "---\nname: a-1 # the id\ndescription: 'it''s fine'\n---\nBody",
      'f',
    );
    expect(parsed).toEqual({ name: 'a-1', description: "it's fine", body: 'Body' });
  });
});

describe('skill tools', () => {
  async function run(toolkit: Toolkit, name: string, input: Record<string, unknown>) {
    const events = await lastValueFrom(
      toolkit
        .execute(
          { id: 'c1', name, input },
          { signal: new AbortController().signal, toolCallId: 'c1' },
        )
        .pipe(toArray()),
    );
    const last = events.at(-1);
    if (last?.type !== 'result') throw new Error('no result');
    const output = last.result.output;
    return {
      text: typeof output === 'string' ? output : JSON.stringify(output),
      isError: last.result.isError === true,
    };
  }

  it('load_skill answers the instructions and lists the files', async () => {
    const toolkit = new Toolkit(skillTools(await loadSkills(join(root, 'skills'))));
    const { text, isError } = await run(toolkit, 'load_skill', { name: 'refunds' });
    expect(isError).toBe(false);
    expect(text).toContain('Check the order first.');
    expect(text).toContain('- reference/limits.md');
  });

  it('read_skill_file reads a file of the skill', async () => {
    const toolkit = new Toolkit(skillTools(await loadSkills(join(root, 'skills'))));
    const result = await run(toolkit, 'read_skill_file', {
      name: 'refunds',
      path: 'reference/limits.md',
    });
    expect(result).toEqual({ text: 'Refunds over 500 EUR need a manager.', isError: false });
  });

  it.each([
    ['a parent path', '../../secret.txt', /outside skill "refunds"/],
    ['an absolute path', '/etc/passwd', /not a relative path/],
    ['a missing file', 'nope.md', /has no file/],
    ['the folder itself', '.', /outside skill/],
    ['a sub-folder', 'reference', /is not a file/],
  ])('refuses %s with an error result', async (_, path, message) => {
    const toolkit = new Toolkit(skillTools(await loadSkills(join(root, 'skills'))));
    const result = await run(toolkit, 'read_skill_file', { name: 'refunds', path });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(message);
  });

  it('refuses a link that leads outside the skill, resolved before the check', async () => {
    await symlink(join(root, 'secret.txt'), join(root, 'skills', 'refunds', 'link.md'));
    await symlink(join(root), join(root, 'skills', 'refunds', 'up'));
    const toolkit = new Toolkit(skillTools(await loadSkills(join(root, 'skills'))));
    for (const path of ['link.md', 'up/secret.txt']) {
      const result = await run(toolkit, 'read_skill_file', { name: 'refunds', path });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/outside skill "refunds"/);
      expect(result.text).not.toContain('TOP SECRET');
    }
  });

  it('answers an unknown skill with an error result naming the known ones', async () => {
    const toolkit = new Toolkit(skillTools(await loadSkills(join(root, 'skills'))));
    const result = await run(toolkit, 'load_skill', { name: 'taxes' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/no skill named "taxes" \(skills: pdf-forms, refunds\)/);
  });
});
