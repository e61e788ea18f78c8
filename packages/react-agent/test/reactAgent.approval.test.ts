import {
  createMsg,
  InvalidArgumentError,
  type JsonObject,
  type Msg,
  type NeedsApproval,
  replyMetadata,
  Toolkit,
  textOf,
  tool,
  toolDecisions,
  toolResults,
  userMsg,
} from '@rxagent/core';
import { pendingToolCalls, ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harness, run, transcript, weatherTool, wireMessages } from './harness.js';

/** A payment tool: approval when the amount is above 100 (or always, with `always`). */
function payTool(paid: JsonObject[], needsApproval: NeedsApproval<{ amount: number }>) {
  return tool({
    name: 'pay',
    description: 'Pays an amount.',
    parameters: z.object({ amount: z.number() }),
    needsApproval,
    execute: ({ amount }) => {
      paid.push({ amount });
      return `paid ${amount}`;
    },
  });
}

const PAY_AND_WEATHER = {
  toolCalls: [
    { id: 'c1', name: 'pay', arguments: { amount: 500 } },
    { id: 'c2', name: 'get_weather', arguments: { city: 'Paris' } },
  ],
};

/** Results stored in memory as [id, output, isError]. */
function results(messages: readonly Msg[]) {
  return messages.flatMap(toolResults).map((r) => [r.id, String(r.output), r.isError === true]);
}

async function pausedAgent(
  script: Parameters<typeof harness>[0],
  needsApproval: NeedsApproval<{ amount: number }> = true,
) {
  const paid: JsonObject[] = [];
  const weather: JsonObject[] = [];
  const toolkit = new Toolkit([payTool(paid, needsApproval), weatherTool(weather)]);
  const h = await harness([PAY_AND_WEATHER, ...script], { toolkit });
  const paused = await run(h.agent, userMsg('Pay 500 and tell me the weather.'));
  return { ...h, toolkit, paid, weather, paused };
}

describe('ReActAgent tool approval', () => {
  it('ends before acting with approval_required, the batch pending and the calls stored open', async () => {
    const { agent, paid, weather, paused } = await pausedAgent([]);

    const meta = replyMetadata(paused);
    expect(meta.generateReason).toBe('approval_required');
    expect(meta.approvalRequired).toEqual(['c1']);
    expect(meta.pendingToolCalls?.map((call) => call.id)).toEqual(['c1', 'c2']);
    expect(meta.stats).toMatchObject({ iterations: 1, modelCalls: 1, toolCalls: 0 });
    expect(paid).toEqual([]);
    expect(weather).toEqual([]);
    expect(transcript(agent.memory.messages())).toEqual([
      'user:Pay 500 and tell me the weather.',
      'assistant:tool_use(pay)|tool_use(get_weather)',
    ]);
    expect(pendingToolCalls(agent.memory.messages()).calls.map((c) => c.id)).toEqual(['c1', 'c2']);
  });

  it('runs approved calls and calls that need no approval on toolDecisions({ approve })', async () => {
    const { server, agent, paid, weather } = await pausedAgent(['Paid; sunny in Paris.']);

    const reply = await run(agent, toolDecisions({ approve: ['c1'] }));

    expect(textOf(reply)).toBe('Paid; sunny in Paris.');
    expect(paid).toEqual([{ amount: 500 }]);
    expect(weather).toEqual([{ city: 'Paris' }]);
    expect(results(agent.memory.messages())).toEqual([
      ['c1', 'paid 500', false],
      ['c2', 'Sunny, 21°C', false],
    ]);
    // The decisions Msg is control, not conversation: it is not stored nor sent.
    expect(wireMessages(server, 1).map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
    ]);
    expect(replyMetadata(reply).stats).toMatchObject({ iterations: 1, toolCalls: 2 });
  });

  it('gives a denied call of a parallel batch a [denied] result with the reason and runs the rest', async () => {
    const { server, agent, paid, weather } = await pausedAgent(['I did not pay.']);

    const reply = await run(agent, toolDecisions({ deny: { c1: 'over budget' } }));

    expect(textOf(reply)).toBe('I did not pay.');
    expect(paid).toEqual([]);
    expect(weather).toEqual([{ city: 'Paris' }]);
    const stored = results(agent.memory.messages());
    expect(stored[0]?.[0]).toBe('c1');
    expect(stored[0]?.[1]).toMatch(/^\[denied\].*over budget/);
    expect(stored[0]?.[2]).toBe(true);
    expect(stored[1]).toEqual(['c2', 'Sunny, 21°C', false]);
    const denied = agent.memory.messages().find((m) => toolResults(m)[0]?.id === 'c1');
    expect(denied?.metadata['resultKind']).toBe('denied');
    expect(server.requests).toHaveLength(2);
    expect(pendingToolCalls(agent.memory.messages()).calls).toEqual([]);
  });

  it('denies an undecided call that needs approval with reason "no decision"', async () => {
    const { agent, paid, weather } = await pausedAgent(['ok']);

    await run(agent, toolDecisions({}));

    expect(paid).toEqual([]);
    expect(weather).toEqual([{ city: 'Paris' }]);
    expect(results(agent.memory.messages())[0]?.[1]).toMatch(/^\[denied\].*no decision/);
  });

  it('approves every pending call on call() with no input', async () => {
    const { agent, paid, weather } = await pausedAgent(['done']);

    const reply = await run(agent);

    expect(textOf(reply)).toBe('done');
    expect(paid).toEqual([{ amount: 500 }]);
    expect(weather).toEqual([{ city: 'Paris' }]);
  });

  it('does not run a call that needs approval when the caller supplies results for the others', async () => {
    const { agent, paid, weather } = await pausedAgent(['ok']);
    const supplied = createMsg({
      name: 'user',
      role: 'tool',
      content: [{ type: 'tool_result', id: 'c2', name: 'get_weather', output: 'Rain (reviewer)' }],
    });

    await run(agent, supplied);

    expect(paid).toEqual([]);
    expect(weather).toEqual([]);
    expect(results(agent.memory.messages())).toEqual([
      ['c2', 'Rain (reviewer)', false],
      ['c1', '[denied] no decision', true],
    ]);
  });

  it('resumes an approval in a fresh agent after stateDict() / loadStateDict()', async () => {
    const { model, agent, paused } = await pausedAgent(['Paid after reload.']);
    expect(replyMetadata(paused).generateReason).toBe('approval_required');
    const saved = JSON.parse(JSON.stringify(agent.stateDict())) as JsonObject;

    const paid: JsonObject[] = [];
    const fresh = new ReActAgent({
      name: 'assistant',
      sysPrompt: 'You are a test assistant.',
      model,
      toolkit: new Toolkit([payTool(paid, true), weatherTool()]),
    });
    fresh.loadStateDict(saved);
    const reply = await run(fresh, toolDecisions({ approve: ['c1'] }));

    expect(textOf(reply)).toBe('Paid after reload.');
    expect(paid).toEqual([{ amount: 500 }]);
    expect(results(fresh.memory.messages()).map(([id]) => id)).toEqual(['c1', 'c2']);
  });

  it('asks a predicate with the validated arguments and pauses only when it says so', async () => {
    const seen: unknown[] = [];
    const predicate = async (args: { amount: number }, context: { toolCallId: string }) => {
      seen.push([args, context.toolCallId]);
      return args.amount > 100;
    };
    const paid: JsonObject[] = [];
    const { agent } = await harness(
      [
        { toolCalls: [{ id: 's1', name: 'pay', arguments: { amount: 5 } }] },
        'Paid 5.',
        { toolCalls: [{ id: 'b1', name: 'pay', arguments: { amount: 500 } }] },
      ],
      { toolkit: new Toolkit([payTool(paid, predicate)]) },
    );

    const small = await run(agent, userMsg('Pay 5.'));
    const big = await run(agent, userMsg('Pay 500.'));

    expect(textOf(small)).toBe('Paid 5.');
    expect(replyMetadata(big).generateReason).toBe('approval_required');
    expect(replyMetadata(big).approvalRequired).toEqual(['b1']);
    expect(seen).toEqual([
      [{ amount: 5 }, 's1'],
      [{ amount: 500 }, 'b1'],
    ]);
    expect(paid).toEqual([{ amount: 5 }]);
  });

  it('treats a predicate that throws as needing approval', async () => {
    const { paused, paid } = await pausedAgent([], () => {
      throw new Error('policy service down');
    });

    expect(replyMetadata(paused).approvalRequired).toEqual(['c1']);
    expect(paid).toEqual([]);
  });

  it('rejects decisions for unknown ids, or with other messages, without changing memory', async () => {
    const { agent } = await pausedAgent([]);
    const before = agent.memory.messages();

    await expect(run(agent, toolDecisions({ approve: ['nope'] }))).rejects.toThrow(
      /unknown tool call id\(s\) nope; pending calls: c1, c2/,
    );
    await expect(
      run(agent, [toolDecisions({ approve: ['c1'] }), userMsg('and also this')]),
    ).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(agent.memory.messages()).toEqual(before);
  });

  it('rejects decisions when no tool call waits', async () => {
    const { agent } = await harness(['hi']);
    await run(agent, userMsg('hello'));

    await expect(run(agent, toolDecisions({ approve: ['x'] }))).rejects.toThrow(
      /no tool call waits/,
    );
  });

  it('closes the pending calls with [cancelled] results when a new user message arrives', async () => {
    const { agent, server, paid } = await pausedAgent(['Okay.']);

    await run(agent, userMsg('Forget it.'));

    expect(paid).toEqual([]);
    expect(
      results(agent.memory.messages()).every(
        ([, out, err]) => err && /^\[cancelled\]/.test(String(out)),
      ),
    ).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it('streams the approval reply last', async () => {
    const paid: JsonObject[] = [];
    const { agent } = await harness([PAY_AND_WEATHER], {
      toolkit: new Toolkit([payTool(paid, true), weatherTool()]),
    });

    const events = await lastValueFrom(agent.stream('Pay 500.').pipe(toArray()));

    const last = events[events.length - 1];
    expect(last?.type).toBe('reply');
    expect(events.some((event) => event.type === 'preActing')).toBe(false);
  });
});

describe('ReActAgent preActing deny', () => {
  it('does not run a denied call, records [denied] with the reason, and goes on', async () => {
    const paid: JsonObject[] = [];
    const weather: JsonObject[] = [];
    const { server, agent } = await harness([PAY_AND_WEATHER, 'Weather only.'], {
      toolkit: new Toolkit([payTool(paid, false), weatherTool(weather)]),
    });
    const kinds: unknown[] = [];
    agent.addHook({
      onEvent: (event) => {
        if (event.type === 'preActing' && event.toolCall.name === 'pay')
          event.deny('policy: no payments');
        if (event.type === 'postActing') kinds.push([event.toolCall.id, event.resultKind]);
      },
    });

    const reply = await run(agent, userMsg('Pay and weather.'));

    expect(textOf(reply)).toBe('Weather only.');
    expect(paid).toEqual([]);
    expect(weather).toEqual([{ city: 'Paris' }]);
    const stored = results(agent.memory.messages());
    expect(stored[0]?.[1]).toMatch(/^\[denied\].*policy: no payments/);
    expect(stored[0]?.[2]).toBe(true);
    expect(stored[1]).toEqual(['c2', 'Sunny, 21°C', false]);
    expect(kinds).toEqual(
      expect.arrayContaining([
        ['c1', 'denied'],
        ['c2', undefined],
      ]),
    );
    expect(server.requests).toHaveLength(2);
  });

  it('denies through a replacement event a hook returns', async () => {
    const paid: JsonObject[] = [];
    const { agent } = await harness(
      [{ toolCalls: [{ id: 'c1', name: 'pay', arguments: { amount: 1 } }] }, 'ok'],
      { toolkit: new Toolkit([payTool(paid, false)]) },
    );
    agent.addHook({
      onEvent: (event) => {
        if (event.type !== 'preActing') return;
        const copy = { ...event };
        copy.deny('no');
        return copy;
      },
    });

    await run(agent, userMsg('Pay 1.'));

    expect(paid).toEqual([]);
    expect(results(agent.memory.messages())[0]?.[1]).toMatch(/^\[denied\].*no$/);
  });
});
