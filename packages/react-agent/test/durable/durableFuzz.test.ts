import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { JsonFileSession, unfinishedRuns } from '@rxagent/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type CrashWorld, conversationProblems, crashWorld } from './crashHarness.js';

// RXAGENT_DURABLE_FUZZ=<kills> runs the long fuzz (e.g. 500); by default a short seeded sample.
const KILLS = Number(process.env['RXAGENT_DURABLE_FUZZ'] ?? 3);
const SEED = Number(process.env['RXAGENT_DURABLE_SEED'] ?? 7);
const TURNS = 3;
const POINTS = ['chunk', 'tool', 'result', 'save'] as const;
const MAX_AT: Record<(typeof POINTS)[number], number> = { chunk: 40, tool: 9, result: 6, save: 30 };

let world: CrashWorld | undefined;

afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** mulberry32: a small seeded generator, so a failing run can be replayed by its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('durable runs under random SIGKILLs', () => {
  it(`keeps every conversation valid across ${KILLS} kills at random points (seed ${SEED})`, {
    timeout: 120_000 + KILLS * 20_000,
  }, async () => {
    const next = random(SEED);
    let kills = 0;
    let conversations = 0;
    while (kills < KILLS) {
      world = await crashWorld(TURNS);
      conversations++;
      // Children one after another, each dying at a random point, until one finishes.
      for (;;) {
        const point = POINTS[Math.floor(next() * POINTS.length)]!;
        const at = 1 + Math.floor(next() * MAX_AT[point]);
        const run = await world.run(kills < KILLS ? { killAt: `${point}:${at}` } : {});
        if (!run.killed) break;
        kills++;
      }
      const session = new JsonFileSession(join(world.dir, 'sessions'));
      expect(await unfinishedRuns(session)).toEqual([]);
      expect(await conversationProblems(world)).toEqual([]);
      await world.close();
      world = undefined;
      const log = process.env['RXAGENT_DURABLE_FUZZ_LOG'];
      if (log)
        appendFileSync(
          log,
          `${new Date().toISOString()} kills=${kills} conversations=${conversations}\n`,
        );
    }
    expect(conversations).toBeGreaterThan(0);
  });
});
