import { type JsonObject, Toolkit, tool, userMsg } from '@rxagent/core';
import { GENERATE_RESPONSE, StructuredOutputAgent } from '@rxagent/structured-output';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { modelFor, respond, strictServer, wireTools } from './harness.js';

/** The property names of the `response` object a request's generate_response asks for. */
function responseFields(tools: Map<string, JsonObject>): string[] {
  const parameters = tools.get(GENERATE_RESPONSE)?.['parameters'] as JsonObject | undefined;
  const response = (parameters?.['properties'] as JsonObject | undefined)?.['response'] as
    | JsonObject
    | undefined;
  return Object.keys((response?.['properties'] as JsonObject | undefined) ?? {});
}

describe('StructuredOutputAgents sharing one Toolkit', () => {
  it('run structured calls at once without ever seeing each other’s generate_response', async () => {
    const seenByTools: string[][] = [];
    let started = 0;
    let bothStarted: () => void = () => {};
    const overlap = new Promise<void>((resolve) => {
      bothStarted = resolve;
    });
    const shared = new Toolkit([
      tool({
        name: 'lookup',
        description: 'Looks something up.',
        parameters: z.object({ q: z.string() }),
        // Each call waits for the other agent's call: both structured calls are provably in flight.
        execute: async ({ q }) => {
          if (++started === 2) bothStarted();
          await overlap;
          seenByTools.push(shared.names());
          return `found ${q}`;
        },
      }),
    ]);
    const City = z.object({ city: z.string() });
    const Count = z.object({ count: z.number() });
    const lookup = (q: string) => ({ toolCalls: [{ name: 'lookup', arguments: { q } }] });
    const serverA = await strictServer([lookup('a'), respond({ response: { city: 'Paris' } })]);
    const serverB = await strictServer([lookup('b'), respond({ response: { count: 3 } })]);
    const agentA = new StructuredOutputAgent({
      name: 'a',
      sysPrompt: '',
      model: modelFor(serverA),
      toolkit: shared,
    });
    const agentB = new StructuredOutputAgent({
      name: 'b',
      sysPrompt: '',
      model: modelFor(serverB),
      toolkit: shared,
    });

    const [city, count] = await Promise.all([
      lastValueFrom(agentA.callStructured(userMsg('Where?'), City)),
      lastValueFrom(agentB.callStructured(userMsg('How many?'), Count)),
    ]);

    expect(city).toEqual({ city: 'Paris' });
    expect(count).toEqual({ count: 3 });
    expect(seenByTools).toEqual([['lookup'], ['lookup']]);
    expect(shared.names()).toEqual(['lookup']);
    for (const [server, fields] of [
      [serverA, ['city']],
      [serverB, ['count']],
    ] as const) {
      expect(server.requests).toHaveLength(2);
      server.requests.forEach((_, index) => {
        const tools = wireTools(server, index);
        expect([...tools.keys()]).toEqual(['lookup', GENERATE_RESPONSE]);
        expect(responseFields(tools)).toEqual(fields);
      });
    }
  });
});

/** A triage StructuredOutputAgent that may hand off to billing, both on one strict server. */
async function triageWithBilling(replies: Parameters<typeof strictServer>[0]) {
  const server = await strictServer(replies);
  const billing = new StructuredOutputAgent({
    name: 'billing',
    sysPrompt: '',
    model: modelFor(server),
  });
  const triage = new StructuredOutputAgent({
    name: 'triage',
    sysPrompt: '',
    model: modelFor(server),
    handoffs: [billing],
  });
  return { server, triage };
}

const Answer = z.object({ answer: z.string() });

describe('A StructuredOutputAgent with handoffs', () => {
  it('offers its transfer tools in a structured call as in a plain one', async () => {
    const { server, triage } = await triageWithBilling([respond({ response: { answer: 'yes' } })]);

    expect(await lastValueFrom(triage.callStructured(userMsg('Refund?'), Answer))).toEqual({
      answer: 'yes',
    });
    expect([...wireTools(server, 0).keys()]).toEqual(['transfer_to_billing', GENERATE_RESPONSE]);
  });

  it('returns the handoff reply from call() and says so from callStructured()', async () => {
    const transfer = {
      toolCalls: [{ name: 'transfer_to_billing', arguments: { reason: 'refund' } }],
    };
    const { triage } = await triageWithBilling([transfer, transfer]);

    const reply = await lastValueFrom(
      triage.call(userMsg('Refund?'), { structuredOutput: Answer }),
    );
    expect(reply.metadata['generateReason']).toBe('handoff');
    expect(reply.metadata['handoff']).toEqual({ to: 'billing', reason: 'refund' });
    await expect(lastValueFrom(triage.callStructured(userMsg('Again?'), Answer))).rejects.toThrow(
      /handed the conversation to another agent/,
    );
  });
});
