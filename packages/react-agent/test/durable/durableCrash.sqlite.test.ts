import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type CrashWorld,
  conversationProblems,
  crashWorld,
  ledgerCounts,
  unfinishedIn,
} from './crashHarness.js';

let world: CrashWorld | undefined;

afterAll(async () => {
  await world?.close();
});

describe('a durable ReActAgent on a SqliteSession killed with SIGKILL', {
  timeout: 120_000,
}, () => {
  // Mid-stream, mid-tool, after a tool result, and in the middle of a save.
  for (const killAt of ['chunk:3', 'tool:2', 'result:1', 'save:4', 'save:7']) {
    it(`recovers in a fresh process (killed at ${killAt})`, async () => {
      world = await crashWorld(2, undefined, { sqlite: true });
      expect((await world.run({ killAt })).killed).toBe(true);
      expect(await unfinishedIn(world)).toEqual(['run']);
      const recovered = await world.run();
      expect(recovered.lines.at(-1)).toBe('done');
      expect(await unfinishedIn(world)).toEqual([]);
      expect(await conversationProblems(world)).toEqual([]);
      await world.close();
      world = undefined;
    });
  }

  it('lets one of two processes recovering one file proceed; the other conflicts before any side effect', async () => {
    world = await crashWorld(2, undefined, { sqlite: true });
    expect((await world.run({ killAt: 'result:1' })).killed).toBe(true);
    const requestsBefore = world.server.requests.length;
    const ledgerBefore = sum(await ledgerCounts(world.ledger));
    const raceDir = join(world.dir, 'race');
    await mkdir(raceDir);
    const [a, b] = await Promise.all([world.run({ raceDir }), world.run({ raceDir })]);
    expect([a.lines.at(-1), b.lines.at(-1)].sort()).toEqual(['conflict', 'done']);
    const loser = a.lines.at(-1) === 'conflict' ? a : b;
    expect(loser.lines).toEqual(['conflict']);
    expect(world.server.requests.length - requestsBefore).toBe(5);
    expect(sum(await ledgerCounts(world.ledger))).toBe(ledgerBefore + 4);
    expect(await unfinishedIn(world)).toEqual([]);
    expect(await conversationProblems(world)).toEqual([]);
    await world.close();
    world = undefined;
  });
});

function sum(counts: Map<string, number>): number {
  return [...counts.values()].reduce((a, b) => a + b, 0);
}
