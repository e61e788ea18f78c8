import { textOf } from '@rxagent/core';
import { captureOutput } from '@rxagent/example-kit';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';

describe('skills-desk example (offline)', () => {
  it('loads the refunds skill on demand, refunds within its limit and answers with the refund id', async () => {
    const { out, text } = captureOutput();
    const { reply, refunds, systemPrompt, memory } = await main({ out, env: {}, paceMs: 0 });

    expect(text().split('\n')[0]).toMatch(/^mode: offline/);
    expect(systemPrompt).toContain('- refunds: How to refund an order');
    expect(systemPrompt).toContain('- shipping-delays: What to tell a customer');
    expect(systemPrompt).not.toContain('Read `reference/limits.md`'); // instructions only on demand
    expect(refunds).toEqual([{ order: 'A-1001', amount: 149 }]);
    expect(textOf(reply)).toContain('refund R-1');
    expect(JSON.stringify(memory)).toContain('Up to 200 EUR');
  });

  it('redacts the card, the e-mail and the customer record before the model or memory sees them', async () => {
    const { out, text } = captureOutput();
    const { memory } = await main({ out, env: {}, paceMs: 0 });
    const stored = JSON.stringify(memory);
    for (const secret of ['4111 1111 1111 1111', 'jane.roe@example.com', '7946 0958']) {
      expect(stored).not.toContain(secret);
    }
    expect(stored).toContain('[REDACTED:card_number]');
    expect(text()).toContain('🛡 guardrail pii redacted the input');
    expect(text()).toContain('🛡 guardrail pii redacted a tool result');
  });
});
