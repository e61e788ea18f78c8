import {
  AgentBase,
  InMemorySession,
  InvalidArgumentError,
  type JsonObject,
  type Msg,
  msgHub,
  type PreCallEvent,
  type SaveOptions,
  SessionConflictError,
  Toolkit,
  textOf,
  tool,
  toolDecisions,
  toolResults,
  unfinishedRuns,
  userMsg,
} from '@rxagent/core';
import {
  EchoAgent,
  RecordingSession,
  ScriptedChatModel,
  type ScriptedReply,
} from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom, type Observable, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** A fresh session holding what `session` held after its `n`-th save: a process that died then. */
async function diedAfterSave(session: RecordingSession, n: number): Promise<InMemorySession> {
  const fresh = new InMemorySession();
  await session.restoreInto(fresh, n - 1);
  return fresh;
}

function setup(session: InMemorySession, script: ScriptedReply[], ran: string[]) {
  const charge = tool({
    name: 'charge',
    description: 'Charges.',
    parameters: z.object({ amount: z.number() }),
    execute: ({ amount }, { toolCallId }) => {
      ran.push(`charge ${toolCallId}`);
      return `charged ${amount}`;
    },
  });
  const lookup = tool({
    name: 'lookup',
    description: 'Looks up.',
    parameters: z.object({}),
    idempotent: true,
    execute: (_args, { toolCallId }) => {
      ran.push(`lookup ${toolCallId}`);
      return 'found';
    },
  });
  const model = new ScriptedChatModel(script);
  const agent = new ReActAgent({
    name: 'shop',
    sysPrompt: 'You run a shop.',
    model,
    toolkit: new Toolkit([charge, lookup]),
    durable: { session, key: 'run' },
  });
  return { agent, model };
}

const SCRIPT: ScriptedReply[] = [
  {
    toolCalls: [
      { id: 'l1', name: 'lookup', arguments: {} },
      { id: 'c1', name: 'charge', arguments: { amount: 3 } },
    ],
  },
  'All done.',
];

describe('a durable ReActAgent', () => {
  it('saves once per boundary: the start, each step, before each tool, each result but the last of a batch (saved by its step), and the end', async () => {
    const session = new RecordingSession();
    const { agent } = setup(session, SCRIPT, []);
    await agent.reply('Buy tea.');
    const kinds = session.saves.map((save) => {
      const call = save['call'] as JsonObject;
      const progress = call['progress'] as JsonObject | undefined;
      const next = progress?.['next'] as JsonObject | undefined;
      const started = (progress?.['started'] as string[] | undefined)?.join('+') ?? '';
      return `${String(call['status'])}:${String(next?.['kind'] ?? 'start')}:${started}`;
    });
    expect(kinds).toEqual([
      'running:start:', // the call starts
      'running:act:', // the reasoning reply with two calls is stored
      'running:act:l1', // before lookup
      'running:act:l1+c1', // before charge
      'running:act:l1+c1', // lookup's result stored
      'running:reason:', // charge's result stored: the batch is done
      // The final reply is stored and the call ended: one save, the call marked finished with
      // its reply (its progress stays the last boundary's).
      'finished:reason:',
    ]);
    expect(await unfinishedRuns(session)).toEqual([]);
  });

  it('recovers at every boundary: no stored reply asked again, no stored result run again, charge at most once', async () => {
    const session = new RecordingSession();
    const first: string[] = [];
    await setup(session, SCRIPT, first).agent.reply('Buy tea.');
    for (let n = 1; n < session.saves.length; n++) {
      const restarted = await diedAfterSave(session, n);
      expect(await unfinishedRuns(restarted)).toEqual(['run']);
      const ran: string[] = [];
      const progress = (session.saves[n - 1]!['call'] as JsonObject)['progress'] as
        | JsonObject
        | undefined;
      const replies = progress === undefined ? SCRIPT : SCRIPT.slice(1);
      const { agent, model } = setup(restarted, replies, ran);
      const reply = await lastValueFrom(agent.recover());
      expect(textOf(reply)).toBe('All done.');
      expect(model.requests.length).toBeLessThanOrEqual(replies.length);
      // Before the charge started, it runs now; once started, it is in doubt and never runs again.
      const started = ((progress?.['started'] as string[] | undefined) ?? []).includes('c1');
      const stored = agent.memory.messages().flatMap(toolResults);
      const charge = stored.find((result) => result.id === 'c1');
      if (started && !String(charge?.output).startsWith('charged'))
        expect(ran).not.toContain('charge c1');
      expect(ran.filter((line) => line === 'charge c1').length).toBeLessThanOrEqual(1);
      expect(await unfinishedRuns(restarted)).toEqual([]);
    }
  });

  it('gives a started non-idempotent call an in_doubt result and runs a started idempotent one again', async () => {
    const session = new RecordingSession();
    await setup(session, SCRIPT, []).agent.reply('Buy tea.');
    const restarted = await diedAfterSave(session, 4); // both tools started, no result stored
    const ran: string[] = [];
    const { agent } = setup(restarted, SCRIPT.slice(1), ran);
    await lastValueFrom(agent.recover());
    expect(ran).toEqual(['lookup l1']);
    const results = agent.memory.messages().filter((m) => m.role === 'tool');
    expect(results.map((m) => [toolResults(m)[0]?.id, m.metadata['resultKind'] ?? null])).toEqual([
      ['l1', null],
      ['c1', 'in_doubt'],
    ]);
    expect(textOf(results[1]!)).toBe('');
    expect(String(toolResults(results[1]!)[0]?.output)).toBe(
      '[interrupted] the process stopped while this tool ran; its outcome is unknown',
    );
  });

  it('runs preCall hooks with recovered: true on a recovered call', async () => {
    const session = new RecordingSession();
    await setup(session, SCRIPT, []).agent.reply('Buy tea.');
    const restarted = await diedAfterSave(session, 2);
    const { agent } = setup(restarted, SCRIPT.slice(1), []);
    const seen: (boolean | undefined)[] = [];
    agent.addHook({
      onEvent: (event) => {
        if (event.type === 'preCall') seen.push((event as PreCallEvent).recovered);
      },
    });
    await lastValueFrom(agent.recover());
    await agent.reply('Thanks.').catch(() => undefined);
    expect(seen).toEqual([true, undefined]);
  });

  it('loads a finished checkpoint into the agent and completes without a reply', async () => {
    const session = new RecordingSession();
    await setup(session, SCRIPT, []).agent.reply('Buy tea.');
    const { agent, model } = setup(session, [], []);
    const emitted = await lastValueFrom(agent.recover(), { defaultValue: undefined });
    expect(emitted).toBeUndefined();
    expect(model.requests).toHaveLength(0);
    expect(textOf(agent.memory.messages().at(-1)!)).toBe('All done.');
  });

  it('completes without a reply when the key holds nothing', async () => {
    const { agent } = setup(new InMemorySession(), [], []);
    expect(await lastValueFrom(agent.recover(), { defaultValue: 'none' })).toBe('none');
  });

  it('ends its call with SessionConflictError, before the next tool, when another process saved the run', async () => {
    const session = new InMemorySession();
    const ran: string[] = [];
    const { agent } = setup(session, SCRIPT, ran);
    agent.addHook({
      onEvent: async (event) => {
        // Another process takes the run over while this one reasons.
        if (event.type === 'postReasoning') await session.save('run', { stolen: true });
      },
    });
    await expect(agent.reply('Buy tea.')).rejects.toBeInstanceOf(SessionConflictError);
    expect(ran).toEqual([]);
    expect(await session.load('run')).toEqual({ stolen: true });
  });

  it('keeps an approval stop finished; recover() then toolDecisions() resumes it in a fresh process', async () => {
    const session = new InMemorySession();
    const paid: number[] = [];
    const make = (script: ScriptedReply[]) => {
      const pay = tool({
        name: 'pay',
        description: 'Pays.',
        parameters: z.object({ amount: z.number() }),
        needsApproval: true,
        execute: ({ amount }) => {
          paid.push(amount);
          return `paid ${amount}`;
        },
      });
      return new ReActAgent({
        name: 'shop',
        sysPrompt: 'You run a shop.',
        model: new ScriptedChatModel(script),
        toolkit: new Toolkit([pay]),
        durable: { session, key: 'run' },
      });
    };
    const stopped = await make([
      { toolCalls: [{ id: 'p1', name: 'pay', arguments: { amount: 9 } }] },
    ]).reply('Pay 9.');
    expect(stopped.metadata['generateReason']).toBe('approval_required');
    expect(await unfinishedRuns(session)).toEqual([]);
    const fresh = make(['Paid.']);
    expect(await lastValueFrom(fresh.recover(), { defaultValue: undefined })).toBeUndefined();
    const reply = await fresh.reply(toolDecisions({ approve: ['p1'] }));
    expect(textOf(reply)).toBe('Paid.');
    expect(paid).toEqual([9]);
  });
});

describe('incremental checkpoints of a durable ReActAgent', () => {
  function chatAgent(session: InMemorySession, replies: string[]) {
    return new ReActAgent({
      name: 'chat',
      sysPrompt: 'Be brief.',
      model: new ScriptedChatModel(replies),
      durable: { session, key: 'run', segmentSize: 2 },
    });
  }
  const segments = async (session: InMemorySession) =>
    (await session.list()).filter((key) => key.startsWith('run~seg.'));

  it('keeps sealed messages out of the head, recovers them whole, and drops them after memory.clear()', async () => {
    const session = new InMemorySession();
    const agent = chatAgent(session, ['a1', 'a2', 'a3']);
    for (const text of ['q1', 'q2', 'q3']) await agent.reply(text);
    const head = (await session.load('run')) as unknown as {
      state: { memory: { messages: Msg[] } };
    };
    expect(head.state.memory.messages).toEqual([]);
    expect(await segments(session)).toHaveLength(3);

    const fresh = chatAgent(session, ['a4']);
    expect(await lastValueFrom(fresh.recover(), { defaultValue: undefined })).toBeUndefined();
    expect(fresh.memory.messages()).toEqual(agent.memory.messages());
    fresh.memory.clear();
    await fresh.reply('q4');
    expect(await segments(session)).toHaveLength(1);
    const again = chatAgent(session, []);
    await lastValueFrom(again.recover(), { defaultValue: undefined });
    expect(again.memory.messages().map((m) => textOf(m))).toEqual(['q4', 'a4']);
  });

  it('recovers an unfinished call whose messages are in segments', async () => {
    // Copies of the whole session after each checkpoint of a running call: a process dying then.
    const snapshots: InMemorySession[] = [];
    const session = new (class extends InMemorySession {
      override async save(key: string, state: JsonObject, options?: SaveOptions) {
        await super.save(key, state, options);
        const call = state['call'] as JsonObject | undefined;
        if (key !== 'run' || call?.['status'] !== 'running') return;
        const copy = new InMemorySession();
        for (const k of await this.list()) await copy.save(k, (await this.load(k))!);
        snapshots.push(copy);
      }
    })();
    const agent = chatAgent(session, ['a1', 'a2', 'a3']);
    for (const text of ['q1', 'q2', 'q3']) await agent.reply(text);
    const died = snapshots.at(-1)!; // the third call's start (its reply is saved with its end)
    expect(await unfinishedRuns(died)).toEqual(['run']);
    expect((await segments(died)).length).toBeGreaterThanOrEqual(2);
    const fresh = chatAgent(died, ['a3 again']);
    expect(textOf(await lastValueFrom(fresh.recover()))).toBe('a3 again');
    expect(fresh.memory.messages().map((m) => textOf(m))).toEqual([
      'q1',
      'a1',
      'q2',
      'a2',
      'q3',
      'a3 again',
    ]);
    expect(await unfinishedRuns(died)).toEqual([]);
  });
});

describe('the durable option', () => {
  class Plain extends AgentBase {
    protected doCall(msgs: Msg[]): Observable<Msg> {
      return of(userMsg(textOf(msgs[0]!)));
    }
  }

  it('rejects an unknown key, a non-session and a bad key, naming them', () => {
    const session = new InMemorySession();
    expect(() => new Plain({ name: 'a', durable: { session, key: 'k', ttl: 1 } as never })).toThrow(
      /ttl/,
    );
    expect(() => new Plain({ name: 'a', durable: { session: {}, key: 'k' } as never })).toThrow(
      /durable.session must be a Session/,
    );
    expect(() => new Plain({ name: 'a', durable: { session, key: '' } })).toThrow(
      InvalidArgumentError,
    );
  });

  it('makes recover() an error on an agent that is not durable', async () => {
    await expect(lastValueFrom(new Plain({ name: 'a' }).recover())).rejects.toThrow(/not durable/);
  });

  it('rejects an idempotent flag that is not a boolean', () => {
    const def = { name: 't', description: '', parameters: z.object({}), execute: () => '' };
    expect(() => tool({ ...def, idempotent: 'yes' as never })).toThrow(/idempotent/);
  });
});

/** An InMemorySession that snapshots every key at each save: a process may die after any. */
class SnapshotSession extends InMemorySession {
  readonly snapshots: Map<string, JsonObject>[] = [];
  readonly #latest = new Map<string, JsonObject>();
  override async save(key: string, state: JsonObject, options?: SaveOptions): Promise<void> {
    await super.save(key, state, options);
    this.#latest.set(key, JSON.parse(JSON.stringify(state)) as JsonObject);
    this.snapshots.push(new Map(this.#latest));
  }
}

describe('a durable agent called as a tool', () => {
  function team(
    session: InMemorySession,
    parentScript: ScriptedReply[],
    subScript: ScriptedReply[],
    ran: string[],
  ) {
    const sub = setup(session, subScript, ran).agent;
    const helper = new ReActAgent({
      name: 'helper',
      sysPrompt: 'You help.',
      model: new ScriptedChatModel(subScript),
      toolkit: sub.toolkit,
      durable: { session, key: 'helper' },
    });
    const lead = new ReActAgent({
      name: 'lead',
      sysPrompt: 'You lead.',
      model: new ScriptedChatModel(parentScript),
      toolkit: new Toolkit([helper.asTool({ name: 'ask_helper' })]),
      durable: { session, key: 'lead' },
    });
    return { lead, helper };
  }
  const PARENT: ScriptedReply[] = [
    { toolCalls: [{ id: 'h1', name: 'ask_helper', arguments: { request: 'Buy tea.' } }] },
    'The helper is done.',
  ];

  it('recovers the sub-agent inside the recovered tool call: each charge at most once, one reply', async () => {
    const session = new SnapshotSession();
    await team(session, PARENT, SCRIPT, []).lead.reply('Get tea.');
    for (let n = 1; n < session.snapshots.length; n++) {
      const restarted = new InMemorySession();
      for (const [key, state] of session.snapshots[n - 1]!) await restarted.save(key, state);
      const ran: string[] = [];
      const lead = session.snapshots[n - 1]!.get('lead')!;
      const leadProgress = (lead['call'] as JsonObject)['progress'];
      const helper = session.snapshots[n - 1]!.get('helper');
      const helperProgress = helper && (helper['call'] as JsonObject)['progress'];
      const { lead: agent } = team(
        restarted,
        PARENT.slice(leadProgress === undefined ? 0 : 1),
        SCRIPT.slice(helperProgress === undefined ? 0 : 1),
        ran,
      );
      const reply = await lastValueFrom(agent.recover(), { defaultValue: undefined });
      expect(reply && textOf(reply)).toBe('The helper is done.');
      expect(ran.filter((line) => line === 'charge c1').length).toBeLessThanOrEqual(1);
      expect(await unfinishedRuns(restarted)).toEqual([]);
    }
  });
});

describe('a recovered call that dies again', () => {
  it('recovers from each checkpoint of the recovery itself, the conversation valid and charge never rerun', async () => {
    const original = new RecordingSession();
    await setup(original, SCRIPT, []).agent.reply('Buy tea.');
    // The first process died with both tools started; the second dies at each of its saves.
    const second = new RecordingSession();
    await original.restoreInto(second, 3);
    second.saves.length = 0;
    second.stores.length = 0;
    await lastValueFrom(setup(second, SCRIPT.slice(1), []).agent.recover());
    for (let n = 1; n < second.saves.length; n++) {
      const third = await diedAfterSave(second, n);
      const ran: string[] = [];
      const { agent } = setup(third, SCRIPT.slice(1), ran);
      const reply = await lastValueFrom(agent.recover());
      expect(textOf(reply)).toBe('All done.');
      expect(ran).not.toContain('charge c1');
      const open = agent.memory.messages().flatMap((m) => toolResults(m).map((r) => r.id));
      expect(open.sort()).toEqual(['c1', 'l1']);
    }
  });
});

describe('a durable MsgHub participant', () => {
  it('broadcasts its recovered reply to the other participants of the hub it is in', async () => {
    const session = new RecordingSession();
    await setup(session, SCRIPT, []).agent.reply('Buy tea.');
    const restarted = await diedAfterSave(session, 5);
    const { agent } = setup(restarted, SCRIPT.slice(1), []);
    const listener = new EchoAgent({ name: 'listener' });
    const reply = await lastValueFrom(
      msgHub({ participants: [agent, listener] }, () => agent.recover()),
    );
    expect(textOf(reply)).toBe('All done.');
    expect(listener.observed.map((msg) => textOf(msg))).toEqual(['All done.']);
  });
});
