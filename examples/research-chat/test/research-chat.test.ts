import { textOf } from '@rxagent/core';
import { captureOutput } from '@rxagent/example-kit';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';
import { keyFact, TOPICS } from '../src/sources.js';

describe('research-chat example (offline)', () => {
  it('keeps every request of a 30-turn chat within maxTokens by the counter', async () => {
    const { out, text } = captureOutput();
    const run = await main({ out, env: {}, paceMs: 0 });
    expect(text().split('\n')[0]).toMatch(/^mode: offline/);
    expect(run.turns).toHaveLength(31);
    const sizes = run.turns.flatMap((turn) => turn.requestTokens);
    expect(sizes.length).toBeGreaterThanOrEqual(61);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(run.maxTokens);
    // Without compression the chat would have outgrown the budget many times over.
    expect(run.turns.filter((turn) => turn.compressed).length).toBeGreaterThan(5);
    expect(Math.max(...run.turns.map((turn) => turn.memoryMessages))).toBeLessThanOrEqual(12);
    expect(text()).toMatch(/turn 30 · requests [\d,]+ \+ [\d,]+ tokens \(max 4,000\)/);
  });

  it('remembers the first findings through the summaries, in the recap', async () => {
    const { out } = captureOutput();
    const run = await main({ out, env: {}, paceMs: 0, turns: 24 });
    const recap = textOf(run.recap);
    for (const topic of TOPICS) expect(recap).toContain(keyFact(topic));
    const first = run.memory[0]!;
    expect(first.metadata['compressed']).toBeDefined();
    expect(textOf(first)).toContain('Research notes so far');
  });

  it('holds a smaller budget too', async () => {
    const { out } = captureOutput();
    const run = await main({ out, env: {}, paceMs: 0, turns: 12, maxTokens: 3_000 });
    for (const turn of run.turns) {
      for (const size of turn.requestTokens) expect(size).toBeLessThanOrEqual(3_000);
    }
  });
});
