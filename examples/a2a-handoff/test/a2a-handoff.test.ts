import { textOf } from '@rxagent/core';
import { captureOutput } from '@rxagent/example-kit';
import { describe, expect, it } from 'vitest';
import { startBillingServer } from '../src/billingServer.js';
import { main } from '../src/main.js';

describe('a2a-handoff example (offline)', () => {
  it('hands the conversation to the billing agent of another process over A2A', {
    timeout: 60_000,
  }, async () => {
    const { out, text } = captureOutput();
    const reply = await main({ out, env: {} });
    expect(reply.metadata['handoffPath']).toEqual(['triage', 'billing']);
    expect(textOf(reply)).toContain('refunded the second charge');
    expect(text()).toContain('path: triage → billing');
  });

  it('hands off to an A2A agent already running at BILLING_A2A_URL', async () => {
    const { url, server } = await startBillingServer(0, {});
    try {
      const { out } = captureOutput();
      const reply = await main({ out, env: { BILLING_A2A_URL: url } });
      expect(reply.name).toBe('billing');
      expect(textOf(reply)).toContain('order 1042');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
