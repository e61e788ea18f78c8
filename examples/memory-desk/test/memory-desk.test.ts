import { readFileSync } from 'node:fs';
import { InMemoryStore } from '@rxagent/core';
import { SqliteStore } from '@rxagent/sqlite';
import { describe, expect, it } from 'vitest';
import { longMemoryDataset } from '../src/dataset.js';
import { deskAgent, deskMemory } from '../src/desk.js';
import { DATASET_PATH, runMemoryEval } from '../src/memoryEval.js';

describe('memory-desk', () => {
  it('checks in exactly what the dataset generator makes', () => {
    const cases = longMemoryDataset();
    const lines = readFileSync(DATASET_PATH, 'utf8').trim().split('\n');
    expect(lines).toEqual(cases.map((c) => JSON.stringify(c)));
    // Facts are stated, updated and contradicted across sessions.
    const sessions = cases.flatMap((c) => c.metadata?.['sessions'] as string[]);
    expect(sessions.some((s) => s.includes('Update:'))).toBe(true);
    expect(sessions.some((s) => s.includes('Correction:'))).toBe(true);
    expect(new Set(cases.map((c) => c.metadata?.['userId'])).size).toBe(12);
  });

  it('remembers a customer across conversations, and only that customer', async () => {
    const memory = deskMemory(new InMemoryStore());
    await deskAgent(memory).reply('[day 1] Hi! My pet is ferret.', {
      callContext: { customerId: 'ada' },
    });
    await memory.settled();
    const ada = await deskAgent(memory).reply('what is my pet?', {
      callContext: { customerId: 'ada' },
    });
    const bob = await deskAgent(memory).reply('what is my pet?', {
      callContext: { customerId: 'bob' },
    });
    expect(JSON.stringify(ada.content)).toContain('Your pet is ferret.');
    expect(JSON.stringify(bob.content)).toContain('I do not know your pet yet.');
  });

  it('answers the long-memory questions from recall on SQLite (the report shows the accuracy)', {
    timeout: 120_000,
  }, async () => {
    const store = new SqliteStore({ path: ':memory:' });
    try {
      const report = await runMemoryEval(store);
      expect(report.cases.length).toBe(longMemoryDataset().length);
      expect(report.passRate).toBeGreaterThanOrEqual(0.9);
      expect(report.scorers ?? report).toBeDefined();
    } finally {
      store.close();
    }
  });
});
