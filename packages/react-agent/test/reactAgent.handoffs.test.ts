import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AgentEvent,
  handoffPipeline,
  InMemorySession,
  JsonFileSession,
  msgHub,
  replyMetadata,
  Toolkit,
  textOf,
  tool,
  toolResults,
  userMsg,
} from '@rxagent/core';
import type { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harness, run, transcript, weatherTool, wireMessages } from './harness.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const transfer = (to: string, reason?: string) => ({
  toolCalls: [{ id: `t_${to}`, name: `transfer_to_${to}`, arguments: reason ? { reason } : {} }],
});

/** Resolves at the first reasoningChunk of `agent`'s calls. */
function firstChunk(agent: ReActAgent): Promise<void> {
  return new Promise((resolve) => {
    agent.addHook({
      onEvent: (event) => {
        if (event.type === 'reasoningChunk') resolve();
      },
    });
  });
}

const SLOW = { text: 'one two three four five six seven eight', chunkDelayMs: 2_000 };

describe('ReActAgent handoffs', () => {
  it('ends the call with a handoff once the transfer call and the rest of its batch have results', async () => {
    const billing = (await harness([], { name: 'billing', description: 'Invoices and refunds.' }))
      .agent;
    const { server, agent: triage } = await harness(
      [
        {
          text: 'Let me get billing.',
          toolCalls: [
            { id: 'w1', name: 'get_weather', arguments: { city: 'Paris' } },
            { id: 't1', name: 'transfer_to_billing', arguments: { reason: 'refund request' } },
          ],
        },
        'Hello again.',
      ],
      { name: 'triage', handoffs: [billing], toolkit: new Toolkit([weatherTool()]) },
    );

    const reply = await run(triage, userMsg('I want a refund'));

    expect(reply.metadata).toMatchObject({
      generateReason: 'handoff',
      handoff: { to: 'billing', reason: 'refund request' },
    });
    expect(textOf(reply)).toBe('Handed off to billing: refund request');
    expect(transcript(triage.memory.messages())).toEqual([
      'user:I want a refund',
      'assistant:Let me get billing.|tool_use(get_weather)|tool_use(transfer_to_billing)',
      'tool:tool_result(get_weather)',
      'tool:tool_result(transfer_to_billing)',
      'assistant:Handed off to billing: refund request',
    ]);
    const results = triage.memory.messages().flatMap(toolResults);
    expect(results.map((r) => [r.output, r.isError])).toEqual([
      ['Sunny, 21°C', undefined],
      ['Transferred to billing.', undefined],
    ]);
    const tools = server.requests[0]!.body['tools'] as Array<{ function: { name: string } }>;
    expect(tools.map((t) => t.function.name)).toEqual(['get_weather', 'transfer_to_billing']);
    await run(triage, userMsg('thanks'));
    expect(wireMessages(server, 1).map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
      'user',
    ]);
  });

  it('names each transfer tool in the function-name charset and keeps it out of a shared toolkit', async () => {
    const shared = new Toolkit([weatherTool()]);
    const tech = (await harness([], { name: 'Tech Support' })).agent;
    const { server, agent: triage } = await harness([transfer('Tech_Support')], {
      name: 'triage',
      toolkit: shared,
      handoffs: [{ agent: tech, description: 'Broken devices.' }],
    });
    const { server: otherServer, agent: other } = await harness(['fine'], {
      name: 'other',
      toolkit: shared,
    });

    const reply = await run(triage, userMsg('my phone is broken'));
    await run(other, userMsg('hi'));

    expect(reply.metadata['handoff']).toEqual({ to: 'Tech Support' });
    expect(textOf(reply)).toBe('Handed off to Tech Support.');
    const [, transferSchema] = server.requests[0]!.body['tools'] as Array<{
      function: { name: string; description: string };
    }>;
    expect(transferSchema?.function.name).toBe('transfer_to_Tech_Support');
    expect(transferSchema?.function.description).toMatch(/Broken devices\./);
    expect(shared.names()).toEqual(['get_weather']);
    expect(otherServer.requests[0]!.body['tools']).toHaveLength(1);
  });

  it('does not hand off when the transfer call failed', async () => {
    const billing = (await harness([], { name: 'billing' })).agent;
    const { agent: triage } = await harness(
      [
        { toolCalls: [{ id: 't1', name: 'transfer_to_billing', arguments: { reason: 42 } }] },
        'I will answer myself.',
      ],
      { name: 'triage', handoffs: [billing] },
    );
    const reply = await run(triage, userMsg('refund?'));
    expect(reply.metadata['generateReason']).toBe('stop');
    expect(triage.memory.messages().flatMap(toolResults)[0]?.isError).toBe(true);
  });

  it('rejects unusable handoff targets', async () => {
    const billing = (await harness([], { name: 'billing' })).agent;
    await expect(harness([], { name: 'billing', handoffs: [billing] })).rejects.toThrow(
      /cannot hand off to itself/,
    );
    await expect(harness([], { name: 't', handoffs: [{} as never] })).rejects.toThrow(
      /handoffs\[0\] must be an agent/,
    );
    const twin = (await harness([], { name: 'billing' })).agent;
    await expect(harness([], { name: 't', handoffs: [billing, twin] })).rejects.toThrow(
      /like an earlier target/,
    );
  });
});

describe('handoffPipeline with ReActAgents', () => {
  it('has the target answer from the conversation it observed, without the transfer call', async () => {
    const billing = await harness(['Your refund of $20 is on its way.', 'You are welcome.'], {
      name: 'billing',
    });
    const triage = await harness([transfer('billing', 'refund')], {
      name: 'triage',
      handoffs: [billing.agent],
    });

    const reply = await lastValueFrom(
      handoffPipeline([triage.agent, billing.agent], userMsg('Where is my $20 refund?')),
    );

    expect(textOf(reply)).toBe('Your refund of $20 is on its way.');
    expect(reply.metadata['handoffPath']).toEqual(['triage', 'billing']);
    expect(wireMessages(billing.server, 0)).toEqual([
      { role: 'system', content: 'You are a test assistant.' },
      { role: 'user', content: 'Where is my $20 refund?' },
      { role: 'user', name: 'triage', content: 'Handed off to billing: refund' },
    ]);
    await run(billing.agent, userMsg('thanks'));
  });

  it('sums the usage of every hop on the last reply, with usageByAgent', async () => {
    const billing = await harness(
      [{ text: 'Refunded.', usage: { inputTokens: 40, outputTokens: 10 } }],
      { name: 'billing' },
    );
    const triage = await harness(
      [{ ...transfer('billing'), usage: { inputTokens: 30, outputTokens: 5 } }],
      { name: 'triage', handoffs: [billing.agent] },
    );

    const reply = await lastValueFrom(
      handoffPipeline([triage.agent, billing.agent], userMsg('Refund?')),
    );

    expect(reply.metadata['usage']).toEqual({
      inputTokens: 70,
      outputTokens: 15,
      totalTokens: 85,
      cachedInputTokens: 0,
    });
    expect(reply.metadata['usageByAgent']).toEqual({
      triage: { inputTokens: 30, outputTokens: 5, totalTokens: 35, cachedInputTokens: 0 },
      billing: { inputTokens: 40, outputTokens: 10, totalTokens: 50, cachedInputTokens: 0 },
    });
  });

  it('passes callContext to every hop and spends one budget across the hops', async () => {
    const seen: unknown[] = [];
    const lookup = tool({
      name: 'lookup_invoice',
      description: 'Finds an invoice.',
      parameters: z.object({ id: z.string() }),
      execute: (_args, { callContext }) => {
        seen.push(['tool', callContext]);
        return 'Invoice 7: $20, paid.';
      },
    });
    const billing = await harness(
      [
        {
          toolCalls: [{ id: 'l1', name: 'lookup_invoice', arguments: { id: '7' } }],
          usage: { inputTokens: 60, outputTokens: 10 },
        },
        'Refunded.',
      ],
      { name: 'billing', toolkit: new Toolkit([lookup]) },
    );
    const triage = await harness(
      [{ ...transfer('billing'), usage: { inputTokens: 30, outputTokens: 5 } }],
      {
        name: 'triage',
        handoffs: [billing.agent],
        hooks: [
          {
            onEvent: (event) =>
              void (event.type === 'preCall' && seen.push(['triage', event.callContext])),
          },
        ],
      },
    );
    const callContext = { user: 'ana', tenant: 'acme' };

    const reply = await lastValueFrom(
      handoffPipeline([triage.agent, billing.agent], userMsg('Refund invoice 7?'), {
        callContext,
        budget: { maxTokens: 100 },
      }),
    );

    expect(seen).toEqual([
      ['triage', callContext],
      ['tool', callContext],
    ]);
    // triage used 35 of the 100 tokens: billing had 65, and its first request used 70.
    expect(billing.server.requests).toHaveLength(1);
    expect(reply.metadata['handoffPath']).toEqual(['triage', 'billing']);
    expect(replyMetadata(reply).generateReason).toBe('budget');
    expect(reply.metadata['budget']).toEqual({ limit: 'maxTokens', usedTokens: 70, maxTokens: 65 });
    expect(replyMetadata(reply).usage?.totalTokens).toBe(105);
    // The budget reply ends billing's memory validly: the strict server takes the next call.
    await run(billing.agent, userMsg('And now?'));
    expect(wireMessages(billing.server, 1).at(-2)).toEqual({
      role: 'assistant',
      content: textOf(reply),
    });
  });

  it('prices the hops with the budget and stops the next one when the dollars are spent', async () => {
    const billing = await harness(['Refunded.'], { name: 'billing' });
    const triage = await harness(
      [{ ...transfer('billing'), usage: { inputTokens: 40, outputTokens: 10 } }],
      { name: 'triage', handoffs: [billing.agent] },
    );
    // $1,000 per million tokens: triage's 50 tokens cost $0.05, all the pipeline may spend.
    const price = { inputPerMillion: 1_000, outputPerMillion: 1_000 };
    const budget = { maxCostUsd: 0.05, pricing: { 'test-model': price } };

    const reply = await lastValueFrom(
      handoffPipeline([triage.agent, billing.agent], userMsg('Refund?'), { budget }),
    );

    expect(billing.server.requests).toHaveLength(0);
    expect(replyMetadata(reply).generateReason).toBe('budget');
    expect(reply.metadata['budget']).toMatchObject({ limit: 'maxCostUsd', maxCostUsd: 0 });
    expect(reply.metadata['costUsd']).toBe(0.05);
    expect(reply.metadata['handoffPath']).toEqual(['triage', 'billing']);
  });

  it('stops a hop within milliseconds when the target is interrupted, every agent callable again', async () => {
    const billing = await harness([SLOW, 'billing again'], { name: 'billing' });
    const triage = await harness([transfer('billing'), 'triage again'], {
      name: 'triage',
      handoffs: [billing.agent],
    });
    const agents = [triage.agent, billing.agent];
    const streaming = firstChunk(billing.agent);

    const done = lastValueFrom(handoffPipeline(agents, userMsg('refund?')));
    await streaming;
    const t0 = performance.now();
    agents.find((agent) => agent.isRunning)?.interrupt();
    const reply = await done;

    expect(performance.now() - t0).toBeLessThan(500);
    expect(reply.metadata).toMatchObject({
      generateReason: 'interrupted',
      handoffPath: ['triage', 'billing'],
    });
    expect(agents.map((agent) => agent.isRunning)).toEqual([false, false]);
    expect(textOf(await run(triage.agent, userMsg('hello?')))).toBe('triage again');
    expect(textOf(await run(billing.agent, userMsg('hello?')))).toBe('billing again');
  });

  it('cancels the running agent on unsubscribe', async () => {
    const billing = await harness([SLOW, 'billing again'], { name: 'billing' });
    const triage = await harness([transfer('billing')], {
      name: 'triage',
      handoffs: [billing.agent],
    });
    const streaming = firstChunk(billing.agent);
    const subscription = handoffPipeline([triage.agent, billing.agent], userMsg('x')).subscribe();
    await streaming;
    subscription.unsubscribe();
    await billing.server.requests[0]!.done;
    expect(billing.server.requests[0]!.aborted).toBe(true);
    expect(billing.agent.isRunning).toBe(false);
    expect(textOf(await run(billing.agent, userMsg('again')))).toBe('billing again');
  });

  it('works inside a MsgHub: participants hear every reply once', async () => {
    const billing = await harness(['Refund sent.'], { name: 'billing' });
    const triage = await harness([transfer('billing', 'refund')], {
      name: 'triage',
      handoffs: [billing.agent],
    });
    const auditor = await harness([], { name: 'auditor' });
    const input = userMsg('refund please');
    const participants = [triage.agent, billing.agent, auditor.agent];

    const reply = await lastValueFrom(
      msgHub({ participants, announcement: input }, () =>
        handoffPipeline([triage.agent, billing.agent], input),
      ),
    );

    expect(reply.metadata['handoffPath']).toEqual(['triage', 'billing']);
    expect(transcript(auditor.agent.memory.messages())).toEqual([
      'user:refund please',
      'assistant:Handed off to billing: refund',
      'assistant:Refund sent.',
    ]);
    expect(transcript(billing.agent.memory.messages())).toEqual([
      'user:refund please',
      'assistant:Handed off to billing: refund',
      'assistant:Refund sent.',
    ]);
  });

  it("saves the team's state to a session and a restored team goes on", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'handoff-session-'));
    dirs.push(dir);
    const session = new JsonFileSession(dir);
    const billing = await harness(['Refund sent.'], { name: 'billing' });
    const triage = await harness([transfer('billing', 'refund')], {
      name: 'triage',
      handoffs: [billing.agent],
    });
    await lastValueFrom(handoffPipeline([triage.agent, billing.agent], userMsg('refund please')));
    const team = [triage.agent, billing.agent];
    for (const agent of team) await session.save(agent.name, agent.stateDict());

    const billing2 = await harness(['It was $20.'], { name: 'billing' });
    const triage2 = await harness([transfer('billing', 'follow-up')], {
      name: 'triage',
      handoffs: [billing2.agent],
    });
    const restored = [triage2.agent, billing2.agent];
    for (const agent of restored) agent.loadStateDict((await session.load(agent.name))!);
    const reply = await lastValueFrom(handoffPipeline(restored, userMsg('how much was it?')));

    expect(textOf(reply)).toBe('It was $20.');
    expect(wireMessages(billing2.server, 0).map((m) => [m.role, m.content])).toEqual([
      ['system', 'You are a test assistant.'],
      ['user', 'refund please'],
      ['user', 'Handed off to billing: refund'],
      ['assistant', 'Refund sent.'],
      ['user', 'how much was it?'],
      ['user', 'Handed off to billing: follow-up'],
    ]);
    expect(transcript(triage2.agent.memory.messages()).slice(0, 4)).toEqual(
      transcript(triage.agent.memory.messages()).slice(0, 4),
    );
  });

  it('saves the whole team at a hop, and a team restored from it resumes the hop', async () => {
    const session = new InMemorySession();
    const billing = await harness(['Refund sent.'], { name: 'billing' });
    const triage = await harness([transfer('billing', 'refund')], {
      name: 'triage',
      handoffs: [billing.agent],
    });
    const team = [triage.agent, billing.agent];
    // At the hop: triage has handed off, billing has heard the conversation and starts.
    const removeSaver = billing.agent.addHook({
      onEvent: async (event) => {
        if (event.type !== 'preCall') return;
        removeSaver();
        for (const agent of team) await session.save(agent.name, agent.stateDict());
      },
    });
    await lastValueFrom(handoffPipeline(team, userMsg('refund please')));

    const billing2 = await harness(['Refund sent.'], { name: 'billing' });
    const triage2 = await harness(['Anything else?'], {
      name: 'triage',
      handoffs: [billing2.agent],
    });
    for (const agent of [triage2.agent, billing2.agent]) {
      agent.loadStateDict((await session.load(agent.name))!);
    }
    expect(textOf(await run(billing2.agent))).toBe('Refund sent.');
    expect(wireMessages(billing2.server, 0)).toEqual(wireMessages(billing.server, 0));
    expect(textOf(await run(triage2.agent, userMsg('one more thing')))).toBe('Anything else?');
    expect(wireMessages(triage2.server, 0).map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
  });
});

describe('agent.asTool() with ReActAgents', () => {
  async function desk(
    researcherScript: Parameters<typeof harness>[0],
    deskScript: Parameters<typeof harness>[0],
  ) {
    const researcher = await harness(researcherScript, {
      name: 'researcher',
      description: 'Looks things up.',
    });
    const parent = await harness(deskScript, {
      name: 'desk',
      toolkit: new Toolkit([researcher.agent.asTool({ name: 'ask_researcher' })]),
    });
    return { researcher, parent };
  }

  const ask = (request: string, id = 'a1') => ({
    toolCalls: [{ id, name: 'ask_researcher', arguments: { request } }],
  });

  it("returns the sub-agent's answer, streaming its text as the parent's actingChunk events", async () => {
    const { researcher, parent } = await desk(
      [{ text: 'Plan B costs $12 per month.', chunkSize: 8 }],
      [ask('price of plan B?'), 'Plan B is $12 a month.'],
    );

    const events = await lastValueFrom(
      parent.agent.stream(userMsg('How much is plan B?')).pipe(toArray()),
    );

    const chunks = events.flatMap((e: AgentEvent) => (e.type === 'actingChunk' ? [e.chunk] : []));
    expect(chunks.join('')).toBe('Plan B costs $12 per month.');
    expect(chunks.length).toBeGreaterThan(1);
    const result = parent.agent.memory.messages().flatMap(toolResults)[0];
    expect(result).toMatchObject({ output: 'Plan B costs $12 per month.' });
    expect(wireMessages(researcher.server, 0)).toEqual([
      { role: 'system', content: 'You are a test assistant.' },
      { role: 'user', content: 'price of plan B?' },
    ]);
    expect(transcript(researcher.agent.memory.messages())).toEqual([
      'user:price of plan B?',
      'assistant:Plan B costs $12 per month.',
    ]);
  });

  it('asks again for a repeated request (no dedupe)', async () => {
    const { parent } = await desk(
      ['first', 'second'],
      [ask('same?', 'a1'), ask('same?', 'a2'), 'done'],
    );
    await run(parent.agent, userMsg('go'));
    const outputs = parent.agent.memory
      .messages()
      .flatMap(toolResults)
      .map((r) => r.output);
    expect(outputs).toEqual(['first', 'second']);
  });

  it('interrupts the sub-agent within milliseconds when the parent is interrupted mid-stream', async () => {
    const { researcher, parent } = await desk(
      [SLOW, 'researcher again'],
      [ask('long story'), 'desk again'],
    );
    const streaming = firstChunk(researcher.agent);

    const done = lastValueFrom(parent.agent.call(userMsg('tell me')));
    await streaming;
    const t0 = performance.now();
    parent.agent.interrupt();
    const reply = await done;

    expect(performance.now() - t0).toBeLessThan(500);
    expect(reply.metadata['generateReason']).toBe('interrupted');
    expect(researcher.agent.isRunning).toBe(false);
    await researcher.server.requests[0]!.done;
    expect(researcher.server.requests[0]!.aborted).toBe(true);
    expect(String(parent.agent.memory.messages().flatMap(toolResults)[0]?.output)).toMatch(
      /^\[interrupted\]/,
    );
    expect(textOf(await run(researcher.agent, userMsg('again')))).toBe('researcher again');
    expect(textOf(await run(parent.agent, userMsg('again')))).toBe('desk again');
  });

  it('gives an error result when the sub-agent is already running', async () => {
    const { researcher, parent } = await desk([SLOW], [ask('anything'), 'The researcher is busy.']);
    const streaming = firstChunk(researcher.agent);
    const busy = researcher.agent.call(userMsg('long task')).subscribe();
    await streaming;

    const reply = await run(parent.agent, userMsg('ask it'));

    expect(textOf(reply)).toBe('The researcher is busy.');
    const result = parent.agent.memory.messages().flatMap(toolResults)[0];
    expect(result?.isError).toBe(true);
    expect(String(result?.output)).toMatch(/still running/);
    busy.unsubscribe();
  });

  it('makes an interrupted sub-agent reply an error result', async () => {
    const { researcher, parent } = await desk([SLOW], [ask('long'), 'It was cut off.']);
    const streaming = firstChunk(researcher.agent);
    const done = run(parent.agent, userMsg('go'));
    await streaming;
    researcher.agent.interrupt();
    await done;
    const result = parent.agent.memory.messages().flatMap(toolResults)[0] as {
      output: unknown;
      isError?: boolean;
    };
    expect(result.isError).toBe(true);
    expect(String(result.output)).toMatch(/agent "researcher" was interrupted/);
  });
});
