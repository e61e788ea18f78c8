import {
  type AgentEvent,
  type Msg,
  sequentialPipeline,
  Toolkit,
  textOf,
  userMsg,
} from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { RestateAgent, RestateCallError } from '@rxagent/restate';
import { lastValueFrom, tap, toArray } from 'rxjs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeRestate, type Harness, startHarness } from './harness.js';

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The [start, end] times of each wait the endpoint recorded for `key`. */
function intervals(lines: string[], key: string): [number, number][] {
  const starts = lines
    .filter((l) => l.startsWith(`start ${key} `))
    .map((l) => Number(l.split(' ')[2]));
  const ends = lines.filter((l) => l.startsWith(`end ${key} `)).map((l) => Number(l.split(' ')[2]));
  return starts.map((start, i) => [start, ends[i] ?? Number.NaN]);
}

describeRestate('restateAgent: keys, interrupts, approvals', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  }, 30_000);

  const worker = (key: string) =>
    new RestateAgent({ name: 'worker', ingressUrl: h.restate.ingressUrl, service: 'worker', key });
  const approver = (key: string) =>
    new RestateAgent({
      name: 'approver',
      ingressUrl: h.restate.ingressUrl,
      service: 'approver',
      key,
    });

  it('runs the calls of one key one at a time and different keys at once', async () => {
    const call = (key: string) => worker(key).reply('wait 500 ms', { callContext: { key } });
    const replies = await Promise.all([call('a'), call('a'), call('b')]);
    expect(replies.map(textOf)).toEqual(['done', 'done', 'done']);
    const lines = h.lines('wait.log');
    const [first, second] = intervals(lines, 'a').sort((x, y) => x[0] - y[0]);
    const [b] = intervals(lines, 'b');
    expect(first![1]).toBeLessThanOrEqual(second![0]);
    const overlaps = (x: [number, number], y: [number, number]) => x[0] < y[1] && y[0] < x[1];
    expect(overlaps(b!, first!) || overlaps(b!, second!)).toBe(true);
  }, 60_000);

  it('interrupts a running call within about a second', async () => {
    const agent = worker('int');
    const reply = agent.reply('wait 30000 ms', { callContext: { key: 'int' } });
    await until(() => h.lines('wait.log').some((l) => l.startsWith('start int ')));
    const started = Date.now();
    agent.interrupt();
    const msg = await reply;
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(msg.metadata['generateReason']).toBe('interrupted');
  }, 60_000);

  it('waits for a decision through a restart, shows the pending calls on stream(), and goes on when decided', async () => {
    const agent = approver('ap');
    const events: AgentEvent[] = [];
    const pending = (all: AgentEvent[]) =>
      all.find((event) => (event.type as string) === 'approvalPending') as
        | (AgentEvent & { approvalRequired: string[] })
        | undefined;
    const done = lastValueFrom(
      agent.stream('Refund A-1.').pipe(
        tap((event) => events.push(event)),
        toArray(),
      ),
    );
    await until(() => pending(events) !== undefined);
    await h.killEndpoint();
    await h.startEndpoint();
    await expect(approver('nothing-pending').decide({ approve: ['x'] })).rejects.toBeInstanceOf(
      RestateCallError,
    );
    await expect(agent.decide({ approve: ['call_other'] })).rejects.toThrow(/call_other/);
    expect(h.lines('refund.log')).toEqual([]);
    await agent.decide({ approve: ['call_refund'] });
    const all = await done;
    expect(pending(all)?.approvalRequired).toEqual(['call_refund']);
    expect(all.filter((event) => event.type === 'reply')).toHaveLength(1);
    const reply = all.at(-1) as { type: 'reply'; msg: Parameters<typeof textOf>[0] };
    expect(textOf(reply.msg)).toBe('refund handled');
    expect(h.lines('refund.log')).toEqual(['A-1']);
  }, 60_000);

  it('steers a running call: the message reaches its next model request', async () => {
    const agent = worker('steer');
    const reply = lastValueFrom(
      agent.stream('wait 1500 ms', { callContext: { key: 'steer' } }).pipe(toArray()),
    );
    await until(() => h.lines('wait.log').some((l) => l.startsWith('start steer ')));
    agent.steer('STEER: and hurry');
    const events = await reply;
    const last = events.at(-1) as { type: 'reply'; msg: Msg };
    // The endpoint's model saw the steered message in its request after the tool.
    expect(textOf(last.msg)).toBe('done, steered');
    expect(last.msg.metadata['steered']).toHaveLength(1);
  }, 60_000);

  it('works as a tool of a local agent', async () => {
    const local = new ReActAgent({
      name: 'boss',
      sysPrompt: 'Delegate.',
      model: new ScriptedChatModel([
        { toolCalls: [{ name: 'worker', arguments: { request: 'wait 1 ms' } }] },
        (request) => `worker said ${String(request.messages.at(-1)?.content)}`,
      ]),
      toolkit: new Toolkit([worker('as-tool').asTool()]),
    });
    const reply = await local.reply('Go.');
    expect(textOf(reply)).toBe('worker said done');
  }, 60_000);

  it('takes part in a pipeline like a local agent', async () => {
    const reply = await lastValueFrom(
      sequentialPipeline([worker('pipe'), worker('pipe2')], userMsg('wait 1 ms')),
    );
    expect(textOf(reply)).toBe('done');
  }, 60_000);
});
