import { textOf } from '@rxagent/core';
import { captureOutput } from '@rxagent/example-kit';
import { REDIS_INSTALL_HINT, redisServerAvailable } from '@rxagent/redis/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { main, type TeamHubRedisResult } from '../src/main.js';

const available = redisServerAvailable();
if (!available && process.env['CI'] === 'true') {
  throw new Error(`redis-server is not installed, but CI=true needs it: ${REDIS_INSTALL_HINT}`);
}
if (!available)
  console.warn(
    `skipping team-hub-redis: redis-server not found (install it: ${REDIS_INSTALL_HINT})`,
  );

describe.skipIf(!available)('team-hub-redis example (offline, one process per agent)', () => {
  let result: TeamHubRedisResult;
  let output: string;

  beforeAll(async () => {
    const { out, text } = captureOutput();
    result = await main({ out, env: { PATH: process.env['PATH'] ?? '' } });
    output = text();
  }, 120_000);

  it('runs each agent in its own process', () => {
    expect(output.split('\n')[0]).toMatch(/^mode: offline/);
    const pids = Object.values(result.pids);
    expect(new Set([...pids, process.pid]).size).toBe(4);
  });

  it('has the three speak in turn, each building on what it heard from the others', () => {
    expect(result.turns.map((msg) => msg.name)).toEqual(['planner', 'critic', 'writer']);
    expect(textOf(result.turns[1]!)).toContain('12312 CNY');
    expect(textOf(result.turns[2]!)).toMatch(/West Lake Retreat .*\(12312 CNY all in/);
  });

  it('has every member hear the topic and the two others once, never itself', () => {
    expect(result.heard).toEqual({
      planner: ['user', 'critic', 'writer'],
      critic: ['user', 'planner', 'writer'],
      writer: ['user', 'planner', 'critic'],
    });
    expect(output).toContain('writer heard: user, planner, critic');
  });
});
