import {
  InMemorySession,
  InvalidArgumentError,
  type JsonObject,
  type Msg,
  type NeedsApproval,
  replyMetadata,
  type ToolDecisionMetadata,
  Toolkit,
  textOf,
  tool,
  toolDecisions,
  toolResults,
  toolUses,
  userMsg,
} from '@rxagent/core';
import { RecordingSession, ScriptedChatModel } from '@rxagent/core/testing';
import { type ApprovalRule, ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harness, run, transcript, weatherTool } from './harness.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function payTool(paid: JsonObject[], needsApproval: NeedsApproval<{ amount: number }> = true) {
  return tool({
    name: 'pay',
    description: 'Pays an amount.',
    parameters: z.object({ amount: z.number().positive() }),
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
const PAY = (id: string, amount: number) => ({
  toolCalls: [{ id, name: 'pay', arguments: { amount } }],
});

/** The stored result Msg of call `id`. */
function resultMsg(messages: readonly Msg[], id: string): Msg {
  const msg = messages.find((m) => toolResults(m).some((r) => r.id === id));
  if (!msg) throw new Error(`no result for ${id}`);
  return msg;
}

function resultText(messages: readonly Msg[], id: string): string {
  return String(toolResults(resultMsg(messages, id))[0]!.output);
}

async function pausedAgent(
  script: Parameters<typeof harness>[0],
  options: Parameters<typeof harness>[1] = {},
) {
  const paid: JsonObject[] = [];
  const toolkit = new Toolkit([payTool(paid), weatherTool()]);
  const h = await harness([PAY_AND_WEATHER, ...script], { toolkit, ...options });
  const paused = await run(h.agent, userMsg('Pay 500 and tell me the weather.'));
  expect(replyMetadata(paused).generateReason).toBe('approval_required');
  return { ...h, paid, paused };
}

describe('toolDecisions edit', () => {
  it("runs the call with the edited arguments; the stored tool_use keeps the model's", async () => {
    const { agent, paid } = await pausedAgent(['Paid 50; sunny.']);

    const reply = await run(agent, toolDecisions({ edit: { c1: { amount: 50 } }, by: 'ana' }));

    expect(textOf(reply)).toBe('Paid 50; sunny.');
    expect(paid).toEqual([{ amount: 50 }]);
    const messages = agent.memory.messages();
    const stored = messages.flatMap(toolUses).find((call) => call.id === 'c1');
    expect(stored?.input).toEqual({ amount: 500 });
    expect(resultText(messages, 'c1')).toBe('paid 50');
    const decision = resultMsg(messages, 'c1').metadata['decision'] as JsonObject;
    expect(decision).toEqual({ decision: 'edited', by: 'ana', at: expect.stringMatching(ISO) });
    // The weather call needed no approval: no decision recorded.
    expect(resultMsg(messages, 'c2').metadata['decision']).toBeUndefined();
  });

  it('gives invalid edited arguments an error result naming the field, and does not run the tool', async () => {
    const { agent, paid, server } = await pausedAgent(['The amount was invalid.']);

    await run(agent, toolDecisions({ edit: { c1: { amount: -3 } } }));

    expect(paid).toEqual([]);
    const messages = agent.memory.messages();
    const result = toolResults(resultMsg(messages, 'c1'))[0]!;
    expect(result.isError).toBe(true);
    expect(String(result.output)).toMatch(/invalid arguments[\s\S]*amount/);
    expect(resultMsg(messages, 'c1').metadata['decision']).toMatchObject({ decision: 'edited' });
    // The strict server accepted the conversation that followed.
    expect(server.requests).toHaveLength(2);
  });

  it('rejects an edit naming an id that is not pending, naming it, with memory and state unchanged', async () => {
    const { agent } = await pausedAgent([]);
    const before = JSON.stringify(agent.stateDict());

    await expect(
      run(agent, toolDecisions({ edit: { nope: { amount: 1 } }, remember: ['pay'] })),
    ).rejects.toThrow(/unknown tool call id\(s\) nope; pending calls: c1, c2/);
    await expect(
      run(agent, toolDecisions({ approve: ['c1'], remember: ['paye'] })),
    ).rejects.toThrow(InvalidArgumentError);
    expect(JSON.stringify(agent.stateDict())).toBe(before);
  });
});

describe('metadata.decision', () => {
  it('records approved (with by), denied (with the reason) and no decision', async () => {
    const paid: JsonObject[] = [];
    const toolkit = new Toolkit([payTool(paid), weatherTool()]);
    const threePays = {
      toolCalls: [
        { id: 'a', name: 'pay', arguments: { amount: 1 } },
        { id: 'b', name: 'pay', arguments: { amount: 2 } },
        { id: 'c', name: 'pay', arguments: { amount: 3 } },
      ],
    };
    const { agent } = await harness([threePays, 'done'], { toolkit });
    await run(agent, userMsg('Pay thrice.'));

    await run(agent, toolDecisions({ approve: ['a'], deny: { b: 'too many' }, by: 'bo' }));

    const messages = agent.memory.messages();
    const at = expect.stringMatching(ISO);
    expect(resultMsg(messages, 'a').metadata['decision']).toEqual({
      decision: 'approved',
      by: 'bo',
      at,
    });
    expect(resultMsg(messages, 'b').metadata['decision']).toEqual({
      decision: 'denied',
      by: 'bo',
      at,
      reason: 'too many',
    });
    expect(resultMsg(messages, 'c').metadata['decision']).toEqual({
      decision: 'denied',
      by: 'bo',
      at,
      reason: 'no decision',
    });
    expect(resultText(messages, 'c')).toBe('[denied] no decision');
    expect(paid).toEqual([{ amount: 1 }]);
  });

  it("records 'approved' without by for call() with no input, and nothing on calls that needed no approval", async () => {
    const { agent, paid } = await pausedAgent(['ok']);

    await run(agent);

    const messages = agent.memory.messages();
    expect(paid).toEqual([{ amount: 500 }]);
    expect(resultMsg(messages, 'c1').metadata['decision']).toEqual({
      decision: 'approved',
      at: expect.stringMatching(ISO),
    });
    expect(resultMsg(messages, 'c2').metadata['decision']).toBeUndefined();
  });
});

describe('toolDecisions remember', () => {
  it('approves the tool for the rest of the conversation, also after save and load into a fresh agent', async () => {
    const { agent, paid, server } = await pausedAgent([PAY('c3', 7), 'Paid 7 too.']);

    const reply = await run(
      agent,
      toolDecisions({ approve: ['c1'], remember: ['pay'], by: 'ana' }),
    );

    // The second pay call of the same conversation ran without a stop.
    expect(textOf(reply)).toBe('Paid 7 too.');
    expect(paid).toEqual([{ amount: 500 }, { amount: 7 }]);
    const messages = agent.memory.messages();
    expect(resultMsg(messages, 'c3').metadata['decision']).toEqual({
      decision: 'approved',
      by: 'ana',
      at: expect.stringMatching(ISO),
      remembered: true,
    });
    expect(server.requests).toHaveLength(3);
    const state = agent.stateDict();
    expect(state['approvals']).toEqual({
      version: 1,
      remembered: { pay: { by: 'ana', at: expect.stringMatching(ISO) } },
    });

    const freshPaid: JsonObject[] = [];
    const fresh = await harness([PAY('c4', 8), 'Paid 8.'], {
      toolkit: new Toolkit([payTool(freshPaid), weatherTool()]),
    });
    fresh.agent.loadStateDict(JSON.parse(JSON.stringify(state)) as JsonObject);
    expect(JSON.stringify(fresh.agent.stateDict())).toBe(JSON.stringify(state));
    const later = await run(fresh.agent, userMsg('Pay 8.'));
    expect(textOf(later)).toBe('Paid 8.');
    expect(freshPaid).toEqual([{ amount: 8 }]);
  });

  it('runs pending calls of a remembered tool that got no other decision', async () => {
    const { agent, paid } = await pausedAgent(['ok']);
    await run(agent, toolDecisions({ remember: ['pay'] }));
    expect(paid).toEqual([{ amount: 500 }]);
    expect(resultMsg(agent.memory.messages(), 'c1').metadata['decision']).toMatchObject({
      decision: 'approved',
      remembered: true,
    });
  });
});

describe('approvalRules', () => {
  it('denies with a RegExp rule (its reason, decision rule), even a remembered tool', async () => {
    const paid: JsonObject[] = [];
    const rules: ApprovalRule[] = [
      { tool: /^pa/, when: (args) => args.amount > 100, decision: 'deny', reason: 'over 100' },
    ];
    const { agent, server } = await harness([PAY('p1', 5), PAY('p2', 500), 'Refused.'], {
      toolkit: new Toolkit([payTool(paid)]),
      approvalRules: rules,
    });
    // p1 asks (needsApproval), is approved and remembered; p2 is over 100: the rule refuses it.
    await run(agent, userMsg('Pay.'));
    const reply = await run(agent, toolDecisions({ approve: ['p1'], remember: ['pay'] }));

    expect(textOf(reply)).toBe('Refused.');
    expect(paid).toEqual([{ amount: 5 }]);
    const messages = agent.memory.messages();
    expect(resultText(messages, 'p2')).toBe('[denied] over 100');
    expect(resultMsg(messages, 'p2').metadata).toMatchObject({
      resultKind: 'denied',
      decision: {
        decision: 'rule',
        reason: 'over 100',
        rule: { index: 0, tool: '/^pa/' },
        at: expect.stringMatching(ISO),
      },
    });
    expect(server.requests).toHaveLength(3);
  });

  it('refuses a call a deny rule names even when a human approves it by id', async () => {
    const paid: JsonObject[] = [];
    const twoPays = {
      toolCalls: [
        { id: 'p1', name: 'pay', arguments: { amount: 500 } },
        { id: 'p2', name: 'pay', arguments: { amount: 5 } },
      ],
    };
    const { agent } = await harness([twoPays, 'ok'], {
      toolkit: new Toolkit([payTool(paid)]),
      approvalRules: [
        { tool: 'pay', when: (args) => args.amount > 100, decision: 'deny', reason: 'too big' },
      ],
    });
    // p2 waits for approval (needsApproval); p1 is pending too, already refused by the rule.
    const stopped = await run(agent, userMsg('Pay.'));
    expect(replyMetadata(stopped).approvalRequired).toEqual(['p2']);
    await run(agent, toolDecisions({ approve: ['p1', 'p2'], by: 'ana' }));
    expect(paid).toEqual([{ amount: 5 }]);
    const messages = agent.memory.messages();
    expect(resultText(messages, 'p1')).toBe('[denied] too big');
    expect(resultMsg(messages, 'p1').metadata['decision']).toMatchObject({ decision: 'rule' });
    expect(resultMsg(messages, 'p2').metadata['decision']).toMatchObject({
      decision: 'approved',
      by: 'ana',
    });
  });

  it('allows without asking: the first matching rule decides before needsApproval', async () => {
    const paid: JsonObject[] = [];
    const { agent } = await harness([PAY('p1', 5), PAY('p2', 50), 'ok'], {
      toolkit: new Toolkit([payTool(paid)]),
      approvalRules: [
        { tool: 'pay', when: (args) => args.amount < 10, decision: 'allow' },
        { tool: 'pay', decision: 'ask' },
      ],
    });
    const stopped = await run(agent, userMsg('Pay.'));
    // p1 ran at once (allowed); p2 is 50, so the ask rule stops the call.
    expect(paid).toEqual([{ amount: 5 }]);
    expect(resultMsg(agent.memory.messages(), 'p1').metadata['decision']).toEqual({
      decision: 'rule',
      at: expect.stringMatching(ISO),
      rule: { index: 0, tool: 'pay' },
    });
    expect(replyMetadata(stopped).generateReason).toBe('approval_required');
    expect(replyMetadata(stopped).approvalRequired).toEqual(['p2']);
  });

  it('asks for a tool without needsApproval, and a human deny then records denied', async () => {
    const weather: JsonObject[] = [];
    const { agent } = await harness(
      [{ toolCalls: [{ id: 'w1', name: 'get_weather', arguments: { city: 'Oslo' } }] }, 'ok'],
      {
        toolkit: new Toolkit([weatherTool(weather)]),
        approvalRules: [{ tool: /weather/, decision: 'ask' }],
      },
    );
    const stopped = await run(agent, userMsg('Weather?'));
    expect(replyMetadata(stopped).approvalRequired).toEqual(['w1']);
    await run(agent, toolDecisions({ deny: { w1: 'not now' } }));
    expect(weather).toEqual([]);
    expect(resultMsg(agent.memory.messages(), 'w1').metadata['decision']).toMatchObject({
      decision: 'denied',
      reason: 'not now',
    });
  });

  it("refuses one user what it allows another, by the call's callContext", async () => {
    const paid: JsonObject[] = [];
    const seen: unknown[] = [];
    const rules: ApprovalRule[] = [
      {
        tool: 'pay',
        when: (_args, { callContext }) => {
          seen.push(callContext);
          return (callContext?.['roles'] as string[] | undefined)?.includes('finance') !== true;
        },
        decision: 'deny',
        reason: 'only finance may pay',
      },
      { tool: 'pay', decision: 'allow' },
    ];
    const { agent } = await harness([PAY('p1', 5), 'no', PAY('p2', 6), 'yes'], {
      toolkit: new Toolkit([payTool(paid)]),
      approvalRules: rules,
    });

    await lastValueFrom(agent.call('Pay 5.', { callContext: { user: 'bob', roles: ['sales'] } }));
    await lastValueFrom(agent.call('Pay 6.', { callContext: { user: 'ana', roles: ['finance'] } }));

    expect(paid).toEqual([{ amount: 6 }]);
    const messages = agent.memory.messages();
    expect(resultText(messages, 'p1')).toBe('[denied] only finance may pay');
    expect(resultMsg(messages, 'p2').metadata['decision']).toMatchObject({
      decision: 'rule',
      rule: { index: 1, tool: 'pay' },
    });
    expect(seen).toEqual([
      { user: 'bob', roles: ['sales'] },
      { user: 'ana', roles: ['finance'] },
    ]);
  });

  it('waits for approval when a when throws, and lets an edit be refused by a deny rule', async () => {
    const paid: JsonObject[] = [];
    const { agent } = await harness([PAY('p1', 5), 'ok'], {
      toolkit: new Toolkit([payTool(paid, false)]),
      approvalRules: [
        { tool: 'pay', when: (args) => args.amount > 100, decision: 'deny', reason: 'big' },
        {
          tool: 'pay',
          when: () => {
            throw new Error('policy service down');
          },
          decision: 'allow',
        },
      ],
    });
    const stopped = await run(agent, userMsg('Pay 5.'));
    expect(replyMetadata(stopped).approvalRequired).toEqual(['p1']);
    await run(agent, toolDecisions({ edit: { p1: { amount: 1000 } } }));
    expect(paid).toEqual([]);
    expect(resultText(agent.memory.messages(), 'p1')).toBe('[denied] big');
  });

  it('rejects a bad rule with a TypeError naming its index and field', () => {
    const make = (approvalRules: unknown) => () =>
      new ReActAgent({
        name: 'a',
        sysPrompt: '',
        model: new ScriptedChatModel([]),
        approvalRules: approvalRules as ApprovalRule[],
      });
    expect(
      make([
        { tool: 'x', decision: 'allow' },
        { tool: 'y', decision: 'maybe' },
      ]),
    ).toThrow(/approvalRules\[1\]\.decision must be 'allow', 'ask' or 'deny'/);
    expect(make([{ tool: 3, decision: 'allow' }])).toThrow(/approvalRules\[0\]\.tool/);
    expect(make([{ tool: 'x', decision: 'deny', when: true }])).toThrow(/approvalRules\[0\]\.when/);
    expect(make([{ tool: 'x', decision: 'deny', reason: 1 }])).toThrow(
      /approvalRules\[0\]\.reason/,
    );
    expect(make([{ tool: 'x', decision: 'deny', tools: 'y' }])).toThrow(/unknown field\(s\) tools/);
    expect(make({ tool: 'x' })).toThrow(TypeError);
  });
});

describe('callContext', () => {
  it('reaches every hook event, the tools and needsApproval of the call, frozen', async () => {
    const seenByTool: unknown[] = [];
    const seenByApproval: unknown[] = [];
    const probe = tool({
      name: 'probe',
      description: 'Probes.',
      parameters: z.object({}),
      needsApproval: (_args, { callContext }) => {
        seenByApproval.push(callContext);
        return false;
      },
      execute: (_args, { callContext }) => {
        seenByTool.push(callContext);
        return Object.isFrozen(callContext) ? 'frozen' : 'thawed';
      },
    });
    const { agent } = await harness(
      [{ toolCalls: [{ id: 't1', name: 'probe', arguments: {} }] }, 'done'],
      { toolkit: new Toolkit([probe]) },
    );
    const who = { user: 'ana', tenant: 'acme', roles: ['admin'] };
    const events: { type: string; callContext?: unknown }[] = [];
    const done = new Promise<void>((resolve, reject) =>
      agent.stream('Probe.', { callContext: who }).subscribe({
        next: (event) => {
          events.push(event);
        },
        complete: resolve,
        error: reject,
      }),
    );
    who.user = 'mallory'; // changing the caller's object does not change the call's
    await done;

    const hookEvents = events.filter((event) => event.type !== 'reply');
    expect(new Set(hookEvents.map((event) => event.type))).toEqual(
      new Set([
        'preCall',
        'preReasoning',
        'reasoningChunk',
        'postReasoning',
        'preActing',
        'postActing',
        'postCall',
      ]),
    );
    const expected = { user: 'ana', tenant: 'acme', roles: ['admin'] };
    for (const event of hookEvents) expect(event.callContext).toEqual(expected);
    expect(seenByTool).toEqual([expected]);
    expect(seenByApproval).toEqual([expected]);
    expect(resultText(agent.memory.messages(), 't1')).toBe('frozen');
    expect(transcript(agent.memory.messages())).toHaveLength(4);
  });

  it('rejects a callContext that is not JSON, naming the part', async () => {
    const { agent } = await harness([]);
    await expect(
      lastValueFrom(agent.call('hi', { callContext: { user: 'a', check: () => true } as never })),
    ).rejects.toThrow(
      /options\.callContext must be a JSON object.*callContext\.check is a function/,
    );
    await expect(lastValueFrom(agent.call('hi', { callContext: ['a'] as never }))).rejects.toThrow(
      InvalidArgumentError,
    );
    expect(agent.memory.messages()).toEqual([]);
  });
});

describe('decisions of a durable agent', () => {
  it('keep the edit, who decided and the callContext when the process dies at any save of the resumed call', async () => {
    const make = (
      session: InMemorySession,
      script: Parameters<typeof harness>[0],
      ran: JsonObject[],
    ) =>
      new ReActAgent({
        name: 'shop',
        sysPrompt: 'You run a shop.',
        model: new ScriptedChatModel(script),
        toolkit: new Toolkit([
          tool({
            name: 'pay',
            description: 'Pays.',
            parameters: z.object({ amount: z.number() }),
            needsApproval: true,
            idempotent: true,
            execute: ({ amount }, { callContext }) => {
              ran.push({ amount, user: String(callContext?.['user']) });
              return `paid ${amount}`;
            },
          }),
        ]),
        durable: { session, key: 'run' },
      });
    const session = new RecordingSession();
    const who = { callContext: { user: 'ana' } };
    const first = make(session, [PAY('p1', 500), 'Paid.'], []);
    await first.reply('Pay 500.', who);
    const stopAt = session.saves.length;
    await first.reply(toolDecisions({ edit: { p1: { amount: 50 } }, by: 'ana' }), who);
    const resumed = session.saves.slice(stopAt);
    expect((resumed[0]!['call'] as JsonObject)['options']).toEqual({
      callContext: { user: 'ana' },
    });

    let reran = 0;
    for (let n = 1; n < resumed.length; n++) {
      const restarted = new InMemorySession();
      await session.restoreInto(restarted, stopAt + n - 1);
      const ran: JsonObject[] = [];
      const agent = make(restarted, ['Paid.'], ran);
      const reply = await lastValueFrom(agent.recover());
      expect(textOf(reply)).toBe('Paid.');
      for (const run of ran) expect(run).toEqual({ amount: 50, user: 'ana' });
      reran += ran.length;
      const result = resultMsg(agent.memory.messages(), 'p1');
      expect(resultText(agent.memory.messages(), 'p1')).toBe('paid 50');
      expect(result.metadata['decision'] as unknown as ToolDecisionMetadata).toMatchObject({
        decision: 'edited',
        by: 'ana',
      });
    }
    // Restarts from before the tool's result ran it again (it is idempotent), edited.
    expect(reran).toBeGreaterThan(0);
  });
});
