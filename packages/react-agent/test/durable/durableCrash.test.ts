import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  JsonFileSession,
  loadCheckpoint,
  type Msg,
  textOf,
  toolUses,
  unfinishedRuns,
} from '@rxagent/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type CrashWorld, conversationProblems, crashWorld, ledgerCounts } from './crashHarness.js';

let world: CrashWorld | undefined;

afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The final memory: for each user turn, its final (tool-less) assistant replies. */
async function finalReplies(dir: string): Promise<Map<string, string[]>> {
  const saved = await loadCheckpoint(new JsonFileSession(join(dir, 'sessions')), 'run');
  const state = saved?.state as unknown as { memory: { messages: Msg[] } };
  const replies = new Map<string, string[]>();
  let turn = '';
  for (const msg of state.memory.messages) {
    if (msg.role === 'user') turn = textOf(msg);
    else if (msg.role === 'assistant' && toolUses(msg).length === 0 && !msg.metadata['partial'])
      replies.set(turn, [...(replies.get(turn) ?? []), textOf(msg)]);
  }
  return replies;
}

/** Runs children until one finishes: the first dies at `killAt`, the rest recover. */
async function runWithKill(turns: number, killAt: string): Promise<string[]> {
  world = await crashWorld(turns);
  const first = await world.run({ killAt });
  expect(first.killed).toBe(true);
  const session = new JsonFileSession(join(world.dir, 'sessions'));
  const pending = await unfinishedRuns(session);
  const second = await world.run();
  expect(second.killed).toBe(false);
  expect(second.lines.at(-1)).toBe('done');
  expect(await unfinishedRuns(session)).toEqual([]);
  const replies = await finalReplies(world.dir);
  for (let turn = 0; turn < turns; turn++) expect(replies.get(`turn ${turn}`)).toHaveLength(1);
  expect(await conversationProblems(world)).toEqual([]);
  return pending;
}

const killPoints: [string, string][] = [
  ['mid-stream of the first reply', 'chunk:2'],
  ['mid-stream of a later reply', 'chunk:9'],
  ['inside the first tool', 'tool:1'],
  ['inside the second tool of a batch', 'tool:2'],
  ["between a tool's result and the next request", 'result:1'],
  ['in the middle of a save', 'save:3'],
  ['in the middle of a later save', 'save:8'],
];

describe('a durable ReActAgent killed with SIGKILL', { timeout: 120_000 }, () => {
  for (const [where, killAt] of killPoints) {
    it(`recovers in a fresh process when killed ${where}`, async () => {
      const pending = await runWithKill(2, killAt);
      expect(pending).toEqual(['run']);
    });
  }

  it('answers a non-idempotent tool killed mid-run with an in_doubt result, and reruns an idempotent one', async () => {
    world = await crashWorld(1);
    // lookup runs first, then charge: die inside charge, its outcome unknown.
    expect((await world.run({ killAt: 'tool:2' })).killed).toBe(true);
    expect((await world.run()).lines.at(-1)).toBe('done');
    const counts = await ledgerCounts(world.ledger);
    expect(counts.get('charge call_0_c')).toBe(1);
    const saved = await loadCheckpoint(new JsonFileSession(join(world.dir, 'sessions')), 'run');
    const state = saved?.state as unknown as { memory: { messages: Msg[] } };
    const messages = state.memory.messages;
    const inDoubt = messages.filter((m) => m.metadata['resultKind'] === 'in_doubt');
    expect(inDoubt.map((m) => textOf(m))).toHaveLength(1);
    expect(JSON.stringify(inDoubt[0]?.content)).toContain('its outcome is unknown');
    expect(await conversationProblems(world)).toEqual([]);
  });

  it('lets one of two processes recovering one key proceed; the other conflicts before any side effect', async () => {
    world = await crashWorld(1);
    expect((await world.run({ killAt: 'result:1' })).killed).toBe(true);
    const requestsBefore = world.server.requests.length;
    const ledgerBefore = [...(await ledgerCounts(world.ledger)).values()].reduce((a, b) => a + b);
    const raceDir = join(world.dir, 'race');
    await mkdir(raceDir);
    const [a, b] = await Promise.all([world.run({ raceDir }), world.run({ raceDir })]);
    const outcomes = [a.lines.at(-1), b.lines.at(-1)].sort();
    expect(outcomes).toEqual(['conflict', 'done']);
    const loser = a.lines.at(-1) === 'conflict' ? a : b;
    expect(loser.lines).toEqual(['conflict']);
    // The rest of the turn is two requests (the fee round, the answer) and one charge: the
    // winner's alone, for the loser sent nothing and ran nothing.
    const ledgerAfter = [...(await ledgerCounts(world.ledger)).values()].reduce((x, y) => x + y);
    expect(world.server.requests.length - requestsBefore).toBe(2);
    expect(ledgerAfter).toBe(ledgerBefore + 1);
    expect(await conversationProblems(world)).toEqual([]);
  });
});
