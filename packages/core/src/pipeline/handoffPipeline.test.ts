import { lastValueFrom, type Observable, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { CallContext } from '../agent/callContext.js';
import type { CallOptions } from '../agent/callOptions.js';
import { HandoffError, InvalidArgumentError } from '../errors.js';
import { assistantMsg, type Msg, userMsg } from '../message/msg.js';
import { textOf } from '../message/readers.js';
import { toolDecisions } from '../message/toolDecisions.js';
import { EchoAgent, FailingAgent, ManualAgent, RecordingAgent } from '../testing/testAgents.js';
import { handoffPipeline } from './handoffPipeline.js';

/** Replies from a list: `'>name'` hands off to `name`, anything else is a plain answer. */
class DeskAgent extends RecordingAgent {
  readonly #replies: string[];

  constructor(name: string, replies: string[]) {
    super({ name });
    this.#replies = [...replies];
  }

  protected doCall(msgs: Msg[], context: CallContext): Observable<Msg> {
    this.record(msgs, context);
    const next = this.#replies.shift() ?? 'done';
    if (!next.startsWith('>')) return of(assistantMsg(next, { name: this.name }));
    const to = next.slice(1);
    return of(
      assistantMsg(`Transferred to ${to}.`, {
        name: this.name,
        metadata: { generateReason: 'handoff', handoff: { to, reason: 'their field' } },
      }),
    );
  }
}

const texts = (msgs: readonly Msg[]): string[] => msgs.map(textOf);

describe('handoffPipeline', () => {
  it('emits the first reply with its path when no agent hands off', async () => {
    const triage = new DeskAgent('triage', ['I can answer that myself.']);
    const billing = new DeskAgent('billing', []);
    const reply = await lastValueFrom(handoffPipeline([triage, billing], userMsg('hi')));
    expect(textOf(reply)).toBe('I can answer that myself.');
    expect(reply.metadata['handoffPath']).toEqual(['triage']);
    expect(billing.calls).toEqual([]);
  });

  it('has the target observe the input and replies, then calls it with no new input', async () => {
    const triage = new DeskAgent('triage', ['>billing']);
    const billing = new DeskAgent('billing', ['Your refund is on its way.']);
    const input = userMsg('Where is my refund?');
    const reply = await lastValueFrom(handoffPipeline([triage, billing], input));
    expect(textOf(reply)).toBe('Your refund is on its way.');
    expect(reply.metadata['handoffPath']).toEqual(['triage', 'billing']);
    expect(triage.calls).toEqual([[input]]);
    expect(texts(billing.observed)).toEqual(['Where is my refund?', 'Transferred to billing.']);
    expect(billing.calls).toEqual([[]]);
  });

  it('follows a chain of handoffs, telling each agent only what it has not heard', async () => {
    const triage = new DeskAgent('triage', ['>billing', 'Back to you: all settled.']);
    const billing = new DeskAgent('billing', ['>triage']);
    const reply = await lastValueFrom(handoffPipeline([triage, billing], userMsg('refund?')));
    expect(reply.metadata['handoffPath']).toEqual(['triage', 'billing', 'triage']);
    expect(texts(triage.observed)).toEqual(['Transferred to triage.']);
    expect(texts(billing.observed)).toEqual(['refund?', 'Transferred to billing.']);
    expect(textOf(reply)).toBe('Back to you: all settled.');
  });

  it('errors with HandoffError naming an unknown target', async () => {
    const triage = new DeskAgent('triage', ['>legal']);
    const run = handoffPipeline([triage, new DeskAgent('billing', [])], userMsg('sue them'));
    const error = await lastValueFrom(run).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HandoffError);
    expect(error).toMatchObject({ code: 'HANDOFF_FAILED', target: 'legal', path: ['triage'] });
    expect((error as Error).message).toMatch(/"legal", which is not one of .*"triage", "billing"/);
  });

  it('errors with HandoffError after more than maxHandoffs hops', async () => {
    const a = new DeskAgent('a', ['>b', '>b', '>b']);
    const b = new DeskAgent('b', ['>a', '>a', '>a']);
    const error = await lastValueFrom(
      handoffPipeline([a, b], userMsg('ping'), { maxHandoffs: 3 }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HandoffError);
    expect(error).toMatchObject({ path: ['a', 'b', 'a', 'b'], target: 'a' });
    expect(a.calls).toHaveLength(2);
    expect(b.calls).toHaveLength(2);
  });

  it('allows exactly maxHandoffs hops', async () => {
    const a = new DeskAgent('a', ['>b']);
    const b = new DeskAgent('b', ['pong']);
    const reply = await lastValueFrom(handoffPipeline([a, b], userMsg('ping'), { maxHandoffs: 1 }));
    expect(textOf(reply)).toBe('pong');
    const none = handoffPipeline([new DeskAgent('a', ['>b']), b], userMsg('x'), { maxHandoffs: 0 });
    await expect(lastValueFrom(none)).rejects.toBeInstanceOf(HandoffError);
  });

  it("fails with the running agent's error", async () => {
    const triage = new DeskAgent('triage', ['>billing']);
    const billing = new FailingAgent({ name: 'billing', error: new Error('ledger offline') });
    const run = handoffPipeline([triage, billing], userMsg('refund?'));
    await expect(lastValueFrom(run)).rejects.toThrow('ledger offline');
  });

  it('cancels the agent in flight on unsubscribe, leaving every agent callable', () => {
    const triage = new DeskAgent('triage', ['>billing']);
    const billing = new ManualAgent({ name: 'billing' });
    const subscription = handoffPipeline([triage, billing], userMsg('refund?')).subscribe();
    expect(billing.isPending).toBe(true);
    subscription.unsubscribe();
    expect(billing.signals[0]?.aborted).toBe(true);
    expect([triage.isRunning, billing.isRunning]).toEqual([false, false]);
  });

  it('emits the interrupted reply of the running agent and completes', async () => {
    const triage = new DeskAgent('triage', ['>billing']);
    const billing = new ManualAgent({ name: 'billing' });
    const done = lastValueFrom(handoffPipeline([triage, billing], userMsg('refund?')));
    [triage, billing].find((agent) => agent.isRunning)?.interrupt();
    billing.fail(new DOMException('aborted', 'AbortError'));
    const reply = await done;
    expect(reply.metadata).toMatchObject({
      generateReason: 'interrupted',
      handoffPath: ['triage', 'billing'],
    });
  });

  it('is cold, and rejects bad arguments through the Observable', async () => {
    const echo = new EchoAgent({ name: 'echo' });
    const run = handoffPipeline([echo], userMsg('x'));
    expect(echo.calls).toEqual([]);
    await lastValueFrom(run);
    expect(echo.calls).toHaveLength(1);
    await expect(lastValueFrom(handoffPipeline([]))).rejects.toBeInstanceOf(InvalidArgumentError);
    const twins = handoffPipeline([echo, new EchoAgent({ name: 'echo' })]);
    await expect(lastValueFrom(twins)).rejects.toThrow(/two agents are named "echo"/);
    for (const maxHandoffs of [-1, 1.5, Number.NaN]) {
      const bad = handoffPipeline([echo], userMsg('x'), { maxHandoffs });
      await expect(lastValueFrom(bad)).rejects.toThrow(/maxHandoffs must be a whole number/);
    }
  });

  it('starts with the agent startWith names, whose toolDecisions input the others never hear', async () => {
    const triage = new DeskAgent('triage', []);
    const billing = new DeskAgent('billing', ['>technical']);
    const technical = new DeskAgent('technical', ['Fixed.']);
    const decisions = toolDecisions({ approve: ['c1'] });
    const reply = await lastValueFrom(
      handoffPipeline([triage, billing, technical], decisions, { startWith: 'billing' }),
    );
    expect(textOf(reply)).toBe('Fixed.');
    expect(reply.metadata['handoffPath']).toEqual(['billing', 'technical']);
    expect(triage.calls).toEqual([]);
    expect(billing.calls).toEqual([[decisions]]);
    expect(texts(technical.observed)).toEqual(['Transferred to technical.']);
  });

  it('stamps each pending call of an approval stop with a path starting at the agent that stopped', async () => {
    const own = { type: 'tool_use' as const, id: 'c1', name: 'refund', input: {} };
    const inner = { ...own, id: 'c2', metadata: { path: ['billing', 'ledger'] } };
    class StoppingAgent extends RecordingAgent {
      protected doCall(msgs: Msg[], context: CallContext): Observable<Msg> {
        this.record(msgs, context);
        const metadata = {
          generateReason: 'approval_required',
          pendingToolCalls: [own, inner],
          approvalRequired: ['c1', 'c2'],
        };
        return of(assistantMsg([own], { name: this.name, metadata }));
      }
    }
    const triage = new DeskAgent('triage', ['>billing']);
    const reply = await lastValueFrom(
      handoffPipeline([triage, new StoppingAgent({ name: 'billing' })], userMsg('refund')),
    );
    expect(reply.metadata['handoffPath']).toEqual(['triage', 'billing']);
    expect(reply.metadata['pendingToolCalls']).toEqual([
      { ...own, metadata: { path: ['billing'] } },
      inner,
    ]);
  });

  it('rejects a startWith that names no agent of the pipeline', async () => {
    const echo = new EchoAgent({ name: 'echo' });
    const bad = handoffPipeline([echo], userMsg('x'), { startWith: 'nobody' });
    await expect(lastValueFrom(bad)).rejects.toThrow(InvalidArgumentError);
    await expect(lastValueFrom(bad)).rejects.toThrow(/startWith names "nobody"/);
    expect(echo.calls).toEqual([]);
  });

  it('gives every hop the callContext and what is left of the budget', async () => {
    const options: CallOptions[] = [];
    class OptionsDesk extends DeskAgent {
      protected override doCall(msgs: Msg[], context: CallContext): Observable<Msg> {
        options.push(context.options);
        callContext.user = 'mallory'; // a change after the start reaches no later hop
        return super.doCall(msgs, context);
      }
    }
    const triage = new OptionsDesk('triage', ['>billing']);
    const billing = new OptionsDesk('billing', ['Refunded.']);
    const callContext = { user: 'ana' };
    const budget = { maxTokens: 1_000 };
    const asked = { user: 'ana' };

    await lastValueFrom(handoffPipeline([triage, billing], userMsg('hi'), { callContext, budget }));

    // No hop reported usage, so each is given the whole budget.
    expect(options.map((o) => [o.callContext, o.budget])).toEqual([
      [asked, budget],
      [asked, budget],
    ]);
  });

  it('rejects a bad callContext or budget before calling any agent', async () => {
    const echo = new EchoAgent({ name: 'echo' });
    const call = (options: object) =>
      lastValueFrom(handoffPipeline([echo], userMsg('hi'), options));
    await expect(call({ callContext: 'ana' })).rejects.toThrow(
      /handoffPipeline\(\): options.callContext must be a JSON object.*a string/,
    );
    await expect(call({ budget: { maxTokens: -1 } })).rejects.toThrow(
      /handoffPipeline\(\): budget.maxTokens must be a whole number/,
    );
    await expect(call({ budget: { maxTokens: 5, limit: 2 } })).rejects.toThrow(/limit/);
    expect(echo.calls).toEqual([]);
  });
});
