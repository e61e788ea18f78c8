import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { textOf, toolUses } from '@rxagent/core';
import { captureOutput } from '@rxagent/example-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, type TeamHubResult } from '../src/main.js';

describe('team-hub example (offline)', () => {
  let result: TeamHubResult;
  let output: string;

  beforeAll(async () => {
    const { out, text } = captureOutput();
    result = await main({ out, env: {} });
    output = text();
  });

  it('runs the hub round with every agent hearing the others once', () => {
    expect(output.split('\n')[0]).toMatch(/^mode: offline/);
    expect(result.turns.map((msg) => msg.name)).toEqual(['planner', 'critic', 'writer']);
    for (const agent of result.agents) {
      const memory = agent.memory.messages();
      const ids = memory.map((msg) => msg.id);
      expect(new Set(ids).size, `${agent.name} stores a message twice`).toBe(ids.length);
      for (const turn of result.turns) {
        expect(ids, `${agent.name} is missing ${turn.name}'s turn`).toContain(turn.id);
      }
    }
    // The writer's model request carried what the planner and the critic said.
    expect(result.writerHeard.map((heard) => heard.name)).toEqual(['user', 'planner', 'critic']);
    const critique = result.writerHeard.find((heard) => heard.name === 'critic')?.text ?? '';
    expect(critique).toContain('12312 CNY');
    // 12 × 880 rooms + 0 meeting room + 12 × 146 transport, computed by estimate_budget.
    expect(textOf(result.turns[2]!)).toMatch(/West Lake Retreat .*\(12312 CNY all in/);
    expect(output).toContain('writer heard: user, planner, critic');
  });

  it('lists the fan-out answers in agent order, not arrival order', () => {
    expect(result.fanout.map((msg) => msg.name)).toEqual(['planner', 'critic', 'writer']);
    expect(result.arrivals).toHaveLength(3);
    expect(result.arrivals[2]).toBe('planner');
    for (const answer of result.fanout) expect(textOf(answer)).toMatch(/^Risk: /);
    const printed = output
      .split('\n')
      .filter((line) => /^ {2}(planner|critic|writer): Risk/.test(line));
    expect(printed.map((line) => line.trim().split(':')[0])).toEqual([
      'planner',
      'critic',
      'writer',
    ]);
  });
});

describe('team-hub example with --trace', () => {
  let dir: string;
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes a trace page with a lane per agent, every tool call and the hub deliveries', async () => {
    dir = await mkdtemp(join(tmpdir(), 'rxagent-team-hub-'));
    const { out, text } = captureOutput();
    const result = await main({ out, env: {}, trace: join(dir, 'trace.html') });
    expect(result.tracePage).toBe(join(dir, 'trace.html'));
    expect(text()).toContain(`trace page: ${result.tracePage}`);
    const html = await readFile(result.tracePage!, 'utf8');
    const lanes = [...html.matchAll(/<div class="lane" data-lane="([^"]+)"/g)].map((m) => m[1]);
    expect(lanes).toEqual(['planner', 'critic', 'writer']);
    // Every tool call the agents made is on the page, with its arguments.
    const calls = result.agents.flatMap((agent) =>
      agent.memory.messages().flatMap((msg) => toolUses(msg).map((use) => use.id)),
    );
    expect(calls.length).toBeGreaterThan(0);
    for (const id of new Set(calls)) expect(html).toContain(`data-tool-id="${id}"`);
    // Round 1: the critic heard the planner, the writer heard both.
    expect(html).toContain('heard planner&#39;s reply (hub delivery)');
    expect(html).toContain('heard critic&#39;s reply (hub delivery)');
    expect(html).not.toContain('<script');
  });
});
