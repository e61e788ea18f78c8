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
