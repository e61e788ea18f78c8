import { textOf } from '@rxagent/core';
import { captureOutput } from '@rxagent/example-kit';
import { beforeAll, describe, expect, it } from 'vitest';
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
