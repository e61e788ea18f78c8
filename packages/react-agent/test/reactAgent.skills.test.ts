import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  InvalidArgumentError,
  loadSkills,
  SKILL_TOOL_NAMES,
  type SkillSet,
  textOf,
  toolResults,
  userMsg,
} from '@rxagent/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, run, wireMessages } from './harness.js';

let root: string;
let skills: SkillSet;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'rxagent-react-skills-'));
  const dir = join(root, 'refunds');
  await mkdir(join(dir, 'reference'), { recursive: true });
  await writeFile(
    join(dir, 'SKILL.md'),
    '---\nname: refunds\ndescription: How to refund an order.\n---\nRead reference/limits.md, then refund.\n',
  );
  await writeFile(join(dir, 'reference', 'limits.md'), 'Up to 500 EUR without a manager.');
  await writeFile(join(root, 'secret.txt'), 'TOP SECRET');
  skills = await loadSkills(root);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const call = (id: string, name: string, args: Record<string, unknown>) => ({
  toolCalls: [{ id, name, arguments: args as never }],
});

describe('ReActAgent skills', () => {
  it('puts the catalog in the system prompt, byte-stable, and lets the model load a skill and read its files', async () => {
    const { server, agent } = await harness(
      [
        call('c1', 'load_skill', { name: 'refunds' }),
        call('c2', 'read_skill_file', { name: 'refunds', path: 'reference/limits.md' }),
        call('c3', 'read_skill_file', { name: 'refunds', path: '../secret.txt' }),
        'Refunded 120 EUR.',
      ],
      { skills },
    );

    const reply = await run(agent, userMsg('Refund order 7 (120 EUR).'));

    expect(textOf(reply)).toBe('Refunded 120 EUR.');
    const systems = server.requests.map((_, i) => wireMessages(server, i)[0]);
    expect(systems[0]).toEqual({
      role: 'system',
      content: `You are a test assistant.\n\n${skills.catalog()}`,
    });
    expect(new Set(systems.map((s) => JSON.stringify(s))).size).toBe(1);
    const tools = (server.requests[0]!.body['tools'] as { function: { name: string } }[]).map(
      (t) => t.function.name,
    );
    expect(tools).toEqual([...SKILL_TOOL_NAMES]);
    const results = agent.memory.messages().flatMap(toolResults);
    expect(String(results[0]!.output)).toContain('Read reference/limits.md, then refund.');
    expect(results[1]).toMatchObject({ output: 'Up to 500 EUR without a manager.' });
    expect(results[2]!.isError).toBe(true);
    expect(String(results[2]!.output)).toMatch(/outside skill "refunds"/);
    expect(JSON.stringify(agent.memory.messages())).not.toContain('TOP SECRET');
    expect(agent.sysPrompt).toBe('You are a test assistant.');
  });

  it('rejects a skills option that is not a SkillSet', async () => {
    await expect(harness([], { skills: [] as never })).rejects.toThrow(InvalidArgumentError);
  });
});
