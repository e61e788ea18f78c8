// The SIGKILL scenarios every durable store runs (Redis, SQLite, PostgreSQL): a store package
// calls `crashSuite` inside its own `describe`, with a `WorldStore` of its sessions.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import {
  type CrashWorld,
  conversationProblems,
  crashWorld,
  ledgerCounts,
  unfinishedIn,
  type WorldStore,
} from './crashHarness.js';

/** Mid-stream, mid-tool (the in-doubt charge), after a stored result, and mid-save. */
export const KILL_POINTS: readonly string[] = ['chunk:3', 'tool:2', 'result:1', 'save:4', 'save:9'];

/**
 * Defines the crash tests of a durable ReActAgent on `store()`'s sessions: killed at each of
 * `killPoints`, a fresh process recovers it (one reply per turn, nothing unfinished, a valid
 * conversation); and of two processes recovering one key, one proceeds and the other
 * conflicts before any side effect (no request, no charge).
 */
export function crashSuite(store: () => WorldStore, killPoints = KILL_POINTS): void {
  let world: CrashWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  for (const killAt of killPoints) {
    it(`recovers in a fresh process (killed at ${killAt})`, async () => {
      world = await crashWorld(2, store());
      expect((await world.run({ killAt })).killed).toBe(true);
      expect(await unfinishedIn(world)).toEqual(['run']);
      const recovered = await world.run();
      expect(recovered.lines.at(-1)).toBe('done');
      expect(recovered.lines.filter((line) => line.startsWith('reply '))).toHaveLength(
        recovered.lines.length - 1,
      );
      expect(await unfinishedIn(world)).toEqual([]);
      expect(await conversationProblems(world)).toEqual([]);
    });
  }

  it('lets one of two processes recovering one key proceed; the other conflicts before any side effect', async () => {
    world = await crashWorld(2, store());
    expect((await world.run({ killAt: 'result:1' })).killed).toBe(true);
    const requestsBefore = world.server.requests.length;
    const ledgerBefore = sum(await ledgerCounts(world.ledger));
    const raceDir = join(world.dir, 'race');
    await mkdir(raceDir);
    const [a, b] = await Promise.all([world.run({ raceDir }), world.run({ raceDir })]);
    expect([a.lines.at(-1), b.lines.at(-1)].sort()).toEqual(['conflict', 'done']);
    const loser = a.lines.at(-1) === 'conflict' ? a : b;
    expect(loser.lines).toEqual(['conflict']);
    // The rest of turn 0 (the fee round, the answer; one charge) and turn 1 (three rounds; a
    // lookup and two charges): the winner's alone, for the loser sent nothing and ran nothing.
    expect(world.server.requests.length - requestsBefore).toBe(5);
    expect(sum(await ledgerCounts(world.ledger))).toBe(ledgerBefore + 4);
    expect(await unfinishedIn(world)).toEqual([]);
    expect(await conversationProblems(world)).toEqual([]);
  });
}

function sum(counts: Map<string, number>): number {
  return [...counts.values()].reduce((a, b) => a + b, 0);
}
