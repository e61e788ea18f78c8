import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors.js';
import { userMsg } from '../message/msg.js';
import { textOf } from '../message/readers.js';
import { EchoAgent, FailingAgent, ManualAgent } from '../testing/testAgents.js';
import { sequentialPipeline } from './sequentialPipeline.js';

describe('sequentialPipeline', () => {
  it('feeds each reply to the next agent and emits the last reply once', async () => {
    const a = new EchoAgent({ name: 'a', prefix: 'a:' });
    const b = new EchoAgent({ name: 'b', prefix: 'b:' });
    const c = new EchoAgent({ name: 'c', prefix: 'c:' });
    const replies = await lastValueFrom(
      sequentialPipeline([a, b, c], userMsg('hi')).pipe(toArray()),
    );
    expect(replies.map(textOf)).toEqual(['c:b:a:hi']);
    expect(replies[0]?.name).toBe('c');
    expect(textOf(b.calls[0]![0]!)).toBe('a:hi');
    expect(b.calls[0]![0]?.name).toBe('a');
  });

  it('is cold: no agent is called before subscription', async () => {
    const a = new EchoAgent({ name: 'a' });
    const pipeline = sequentialPipeline([a], userMsg('hi'));
    expect(a.calls).toEqual([]);
    await lastValueFrom(pipeline);
    await lastValueFrom(pipeline);
    expect(a.calls).toHaveLength(2);
  });

  it('calls the first agent with no input when none is given, and passes an array through', async () => {
    const a = new EchoAgent({ name: 'a' });
    await lastValueFrom(sequentialPipeline([a]));
    await lastValueFrom(sequentialPipeline([a], [userMsg('1'), userMsg('2')]));
    expect(a.calls.map((msgs) => msgs.map(textOf))).toEqual([[], ['1', '2']]);
  });

  it('runs the same agent twice when listed twice', async () => {
    const a = new EchoAgent({ name: 'a', prefix: '>' });
    expect(textOf(await lastValueFrom(sequentialPipeline([a, a], userMsg('x'))))).toBe('>>x');
  });

  it('errors with the first failure and calls no later agent', async () => {
    const a = new EchoAgent({ name: 'a' });
    const broken = new FailingAgent({ name: 'broken', error: new Error('boom') });
    const c = new EchoAgent({ name: 'c' });
    await expect(lastValueFrom(sequentialPipeline([a, broken, c], userMsg('hi')))).rejects.toThrow(
      'boom',
    );
    expect(broken.calls).toHaveLength(1);
    expect(c.calls).toEqual([]);
  });

  it('errors with InvalidArgumentError for no agents or a non-agent, through the Observable', async () => {
    const empty = sequentialPipeline([]);
    await expect(lastValueFrom(empty)).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(lastValueFrom(empty)).rejects.toThrow(/pass at least one agent/);
    const bad = sequentialPipeline([{} as never]);
    await expect(lastValueFrom(bad)).rejects.toThrow(/agents\[0\] is not an agent/);
  });

  it('cancels the call in flight on unsubscribe and calls no later agent', () => {
    const slow = new ManualAgent({ name: 'slow' });
    const next = new EchoAgent({ name: 'next' });
    const values: unknown[] = [];
    const subscription = sequentialPipeline([slow, next], userMsg('hi')).subscribe((msg) =>
      values.push(msg),
    );
    expect(slow.isPending).toBe(true);
    subscription.unsubscribe();
    expect(slow.signals[0]?.aborted).toBe(true);
    expect(slow.isRunning).toBe(false);
    expect(slow.isPending).toBe(false);
    expect(values).toEqual([]);
    expect(next.calls).toEqual([]);
  });
});
