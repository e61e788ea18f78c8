import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidArgumentError, PipelineError } from '../errors.js';
import { type Msg, userMsg } from '../message/msg.js';
import { textOf } from '../message/readers.js';
import { DelayedAgent, EchoAgent, FailingAgent, ManualAgent } from '../testing/testAgents.js';
import { fanoutPipeline } from './fanoutPipeline.js';

afterEach(() => {
  vi.useRealTimers();
});

function manualAgents(...names: string[]): ManualAgent[] {
  return names.map((name) => new ManualAgent({ name }));
}

describe('fanoutPipeline', () => {
  it('gives every agent the same input and emits one Msg[] in agent order', async () => {
    const a = new EchoAgent({ name: 'a', prefix: 'a:' });
    const b = new EchoAgent({ name: 'b', prefix: 'b:' });
    const input = userMsg('hi');
    const values = await lastValueFrom(fanoutPipeline([a, b], input).pipe(toArray()));
    expect(values.map((replies) => replies.map(textOf))).toEqual([['a:hi', 'b:hi']]);
    expect(a.calls[0]?.[0]).toBe(input);
    expect(b.calls[0]?.[0]).toBe(input);
  });

  it('emits replies in agent order when the agents finish in reverse order', async () => {
    vi.useFakeTimers();
    const agents = [30, 20, 10].map(
      (delayMs, i) => new DelayedAgent({ name: `d${i}`, delayMs, prefix: `d${i}:` }),
    );
    const done = lastValueFrom(fanoutPipeline(agents, userMsg('x')));
    await vi.advanceTimersByTimeAsync(30);
    expect((await done).map(textOf)).toEqual(['d0:x', 'd1:x', 'd2:x']);
  });

  it('starts every call before any finishes by default', () => {
    const agents = manualAgents('a', 'b', 'c');
    let result: Msg[] | undefined;
    fanoutPipeline(agents, userMsg('x')).subscribe((replies) => {
      result = replies;
    });
    expect(agents.map((agent) => agent.isPending)).toEqual([true, true, true]);
    agents[2]!.respond('c');
    agents[1]!.respond('b');
    expect(result).toBeUndefined();
    agents[0]!.respond('a');
    expect(result?.map(textOf)).toEqual(['a', 'b', 'c']);
  });

  it('keeps at most `concurrency` calls in flight', () => {
    const agents = manualAgents('a', 'b', 'c');
    fanoutPipeline(agents, userMsg('x'), { concurrency: 2 }).subscribe();
    expect(agents.map((agent) => agent.isPending)).toEqual([true, true, false]);
    agents[1]!.respond('b');
    expect(agents[2]!.isPending).toBe(true);
  });

  it('calls one agent at a time, in order, with concurrent: false', () => {
    const agents = manualAgents('a', 'b');
    fanoutPipeline(agents, userMsg('x'), { concurrent: false, concurrency: 5 }).subscribe();
    expect(agents.map((agent) => agent.isPending)).toEqual([true, false]);
    agents[0]!.respond('a');
    expect(agents.map((agent) => agent.isPending)).toEqual([false, true]);
  });

  it('waits for every agent, then errors with a PipelineError naming each failure', async () => {
    const agents = manualAgents('a', 'b', 'c');
    const errors: unknown[] = [];
    fanoutPipeline(agents, userMsg('x')).subscribe({
      error: (error: unknown) => errors.push(error),
    });
    agents[2]!.fail(new Error('c broke'));
    agents[0]!.fail(new Error('a broke'));
    expect(errors).toEqual([]);
    expect(agents[1]!.isPending).toBe(true);
    agents[1]!.respond('fine');
    expect(errors).toHaveLength(1);
    const error = errors[0] as PipelineError;
    expect(error).toBeInstanceOf(PipelineError);
    expect(error).toBeInstanceOf(AggregateError);
    expect(error.failures.map((f) => f.agentName)).toEqual(['a', 'c']);
    expect(error.errors.map((e) => (e as Error).message)).toEqual(['a broke', 'c broke']);
    expect(error.message).toMatch(/a: a broke; c: c broke/);
  });

  it('still calls every agent after a failure with concurrent: false', async () => {
    const first = new FailingAgent({ name: 'first' });
    const second = new EchoAgent({ name: 'second' });
    const run = fanoutPipeline([first, second], userMsg('x'), { concurrent: false });
    await expect(lastValueFrom(run)).rejects.toBeInstanceOf(PipelineError);
    expect(second.calls).toHaveLength(1);
  });

  it('cancels every call in flight on unsubscribe', () => {
    const agents = manualAgents('a', 'b', 'c');
    const subscription = fanoutPipeline(agents, userMsg('x')).subscribe();
    agents[1]!.respond('b');
    subscription.unsubscribe();
    expect([agents[0]!.signals[0]?.aborted, agents[2]!.signals[0]?.aborted]).toEqual([true, true]);
    expect(agents.map((agent) => agent.isRunning)).toEqual([false, false, false]);
  });

  it('is cold and emits [] for no agents', async () => {
    const a = new EchoAgent({ name: 'a' });
    const run = fanoutPipeline([a], userMsg('x'));
    expect(a.calls).toEqual([]);
    await lastValueFrom(run);
    expect(a.calls).toHaveLength(1);
    expect(await lastValueFrom(fanoutPipeline([]).pipe(toArray()))).toEqual([[]]);
  });

  it('rejects an agent listed twice when concurrent, and allows it one at a time', async () => {
    const a = new EchoAgent({ name: 'a', prefix: '>' });
    await expect(lastValueFrom(fanoutPipeline([a, a], userMsg('x')))).rejects.toThrow(
      /"a" is listed twice/,
    );
    expect(a.calls).toEqual([]);
    const replies = await lastValueFrom(
      fanoutPipeline([a, a], userMsg('x'), { concurrent: false }),
    );
    expect(replies.map(textOf)).toEqual(['>x', '>x']);
  });

  it.each([0, -1, 1.5, Number.NaN])(
    'errors with InvalidArgumentError for concurrency %s',
    async (concurrency) => {
      const run = fanoutPipeline([new EchoAgent({ name: 'a' })], userMsg('x'), { concurrency });
      await expect(lastValueFrom(run)).rejects.toBeInstanceOf(InvalidArgumentError);
    },
  );

  it('errors with InvalidArgumentError for a non-agent, through the Observable', async () => {
    await expect(lastValueFrom(fanoutPipeline([null as never]))).rejects.toThrow(
      /agents\[0\] is not an agent/,
    );
  });
});
