import { InMemorySession, type JsonObject, Toolkit, tool, unfinishedRuns } from '@rxagent/core';
import { RecordingSession, ScriptedChatModel, type ScriptedReply } from '@rxagent/core/testing';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StructuredOutputAgent } from './structuredOutputAgent.js';

const Person = z.object({ name: z.string(), age: z.number() });

function agentOn(session: InMemorySession, script: ScriptedReply[], ran: string[]) {
  const lookup = tool({
    name: 'lookup',
    description: 'Looks a person up.',
    parameters: z.object({ name: z.string() }),
    execute: ({ name }) => {
      ran.push(name);
      return `${name} is 36`;
    },
  });
  return new StructuredOutputAgent({
    name: 'extractor',
    sysPrompt: 'Extract people.',
    model: new ScriptedChatModel(script),
    toolkit: new Toolkit([lookup]),
    durable: { session, key: 'run' },
  });
}

const SCRIPT: ScriptedReply[] = [
  { toolCalls: [{ id: 'l1', name: 'lookup', arguments: { name: 'Ada' } }] },
  {
    toolCalls: [
      { id: 'g1', name: 'generate_response', arguments: { response: { name: 'Ada', age: 36 } } },
    ],
  },
];

describe('a durable StructuredOutputAgent', () => {
  it('recovers a structured call from each of its checkpoints with the validated response', async () => {
    const session = new RecordingSession();
    await lastValueFrom(agentOn(session, SCRIPT, []).callStructured('Who is Ada?', Person));
    expect(session.saves.length).toBeGreaterThan(6);
    for (let n = 1; n < session.saves.length; n++) {
      const restarted = new InMemorySession();
      await session.restoreInto(restarted, n - 1);
      const ran: string[] = [];
      const call = session.saves[n - 1]!['call'] as JsonObject;
      const progress = call['progress'] as JsonObject | undefined;
      // Once the first reply is stored it is never asked for again: the script goes on after it.
      const agent = agentOn(restarted, SCRIPT.slice(progress === undefined ? 0 : 1), ran);
      const reply = await lastValueFrom(agent.recover({ structuredOutput: Person }));
      expect(reply.metadata['response']).toEqual({ name: 'Ada', age: 36 });
      expect(ran.length).toBeLessThanOrEqual(1);
      expect(await unfinishedRuns(restarted)).toEqual([]);
    }
  });

  it('asks for the schema again when a structured call is recovered without it', async () => {
    const session = new RecordingSession();
    await lastValueFrom(agentOn(session, SCRIPT, []).callStructured('Who is Ada?', Person));
    const restarted = new InMemorySession();
    await session.restoreInto(restarted, 1);
    await expect(lastValueFrom(agentOn(restarted, [], []).recover())).rejects.toThrow(
      /pass its schema again/,
    );
  });
});
