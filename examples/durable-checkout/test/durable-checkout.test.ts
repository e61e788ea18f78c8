import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unfinishedRuns } from '@rxagent/core';
import { afterEach, describe, expect, it } from 'vitest';
import { checkoutSession } from '../src/checkoutAgent.js';
import { main } from '../src/main.js';

const dirs: string[] = [];

afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('durable-checkout', () => {
  for (const store of ['json', 'sqlite'] as const) {
    it(`recovers the run a SIGKILLed process left, charging once and reporting the shipment in doubt (${store})`, {
      timeout: 60_000,
    }, async () => {
      const dir = await mkdtemp(join(tmpdir(), 'durable-checkout-test-'));
      dirs.push(dir);
      const lines: string[] = [];
      const answer = await main(dir, (line) => lines.push(line), store);
      expect(lines[0]).toBe('the first process died: SIGKILL');
      expect(lines[1]).toBe('unfinished runs: order-42');
      expect(answer).toContain('cut off by a restart');
      const ledger = (await readFile(join(dir, 'ledger.txt'), 'utf8')).trim().split('\n');
      expect(ledger).toEqual(['lookup_basket', 'charge_card 6', 'ship_order']);
      const session = checkoutSession(dir, store);
      expect(await unfinishedRuns(session)).toEqual([]);
      if ('close' in session) await (session as { close(): Promise<void> }).close();
    });
  }
});
