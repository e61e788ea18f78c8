import { textOf, toolResults } from '@rxagent/core';
import { captureOutput } from '@rxagent/example-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { main, type SupportDeskResult } from '../src/main.js';

describe('support-desk example (offline)', () => {
  let result: SupportDeskResult;
  let output: string;

  beforeAll(async () => {
    const { out, text } = captureOutput();
    result = await main({ out, env: {}, paceMs: 0 });
    output = text();
  });

  it('hands the billing ticket to billing, which answers from the ledger', () => {
    expect(output.split('\n')[0]).toMatch(/^mode: offline/);
    const [billingReply] = result.replies;
    expect(billingReply?.metadata['handoffPath']).toEqual(['triage', 'billing']);
    expect(textOf(billingReply!)).toMatch(/invoice INV-2031 \(March, 49 EUR\) was charged twice/);
    expect(output).toContain('⇢ handoff to billing (double charge for March)');
  });

  it('hands the router ticket to technical, which consults the researcher as a tool', () => {
    const technicalReply = result.replies[1]!;
    expect(technicalReply.metadata['handoffPath']).toEqual(['triage', 'technical']);
    expect(textOf(technicalReply)).toMatch(/\(KB-12\).*5 GHz/);
    expect(output).toContain('⇢ handoff to technical (Wi-Fi drops every evening)');
    // The researcher's answer streamed, indented under the technical desk's tool call.
    expect(output).toMatch(/→ ask_researcher .*\n {2}┆ Best match, KB-12 Evening Wi-Fi drops/);
    const research = result.desk.technical.memory.messages().flatMap(toolResults)[0];
    expect(String(research?.output)).toMatch(/^Best match, KB-12/);
  });

  it("keeps each agent's memory its own: the researcher saw only the technical desk's request", () => {
    const { researcher, billing, technical } = result.desk;
    const first = researcher.memory.messages()[0];
    expect(first?.role).toBe('user');
    expect(textOf(first!)).toMatch(/^Router Wi-Fi drops every evening/);
    expect(researcher.memory.messages().some((msg) => textOf(msg).includes('BOLT-03'))).toBe(false);
    expect(billing.memory.messages().some((msg) => textOf(msg).includes('router'))).toBe(false);
    expect(technical.memory.messages().some((msg) => textOf(msg).includes('ACME-17'))).toBe(false);
  });
});
