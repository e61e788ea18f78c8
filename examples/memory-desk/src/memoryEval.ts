import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { MemoryStore } from '@rxagent/core';
import { type EvalCase, type EvalReport, evaluate, includes } from '@rxagent/eval';
import { deskAgent, deskMemory } from './desk.js';

/** The checked-in synthetic long-memory dataset (JSONL, one question per line). */
export const DATASET_PATH = fileURLToPath(new URL('../data/long-memory.jsonl', import.meta.url));

/**
 * Runs the long-memory evaluation on `store`: each customer's sessions are replayed, one
 * conversation each (a fresh agent: only long-term memory carries over), the observer
 * turning them into facts; then every question is asked in a new conversation and scored
 * by whether the answer holds the latest value (`recall`): the report's pass rate is the
 * recall accuracy.
 */
export async function runMemoryEval(store: MemoryStore, path = DATASET_PATH): Promise<EvalReport> {
  const cases = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as EvalCase);
  const sessionsOf = new Map<string, string[]>();
  for (const testCase of cases) {
    const { userId, sessions } = testCase.metadata as { userId: string; sessions: string[] };
    sessionsOf.set(userId, sessions);
  }
  for (const [customerId, sessions] of sessionsOf) {
    const memory = deskMemory(store, { customerId });
    for (const session of sessions) await deskAgent(memory).reply(session);
    await memory.settled();
  }
  return evaluate({
    name: 'long-memory recall',
    dataset: cases,
    agent: (testCase) =>
      deskAgent(deskMemory(store, { customerId: String(testCase.metadata?.['userId']) })),
    scorers: { recall: includes() },
    progress: false,
  });
}
