import { lastValueFrom } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userMsg } from '../message/msg.js';
import { textOf } from '../message/readers.js';
import { DelayedAgent, EchoAgent, FailingAgent, ManualAgent } from './testAgents.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('EchoAgent', () => {
  it('replies with prefix + the text of its input and records the call', async () => {
    const agent = new EchoAgent({ name: 'echo', prefix: '> ' });
    const input = [userMsg('one'), userMsg('two')];
    const reply = await lastValueFrom(agent.call(input));
    expect(textOf(reply)).toBe('> one\ntwo');
    expect(reply).toMatchObject({ name: 'echo', role: 'assistant' });
    expect(agent.calls).toEqual([input]);
    expect(agent.signals).toHaveLength(1);
  });

  it('records what it observes', async () => {
    const agent = new EchoAgent({ name: 'echo' });
    const msg = userMsg('heard');
    await lastValueFrom(agent.observe(msg));
    expect(agent.observed).toEqual([msg]);
  });
});

describe('FailingAgent', () => {
  it('errors with the given error, or one naming the agent', async () => {
    const error = new Error('custom');
    await expect(lastValueFrom(new FailingAgent({ name: 'f', error }).call())).rejects.toBe(error);
    await expect(lastValueFrom(new FailingAgent({ name: 'f' }).call())).rejects.toThrow('f failed');
  });
});

describe('DelayedAgent', () => {
  it('replies after delayMs of (fake) time', async () => {
    vi.useFakeTimers();
    const agent = new DelayedAgent({ name: 'd', delayMs: 100, prefix: 'd:' });
    let text: string | undefined;
    agent.call(userMsg('x')).subscribe((reply) => {
      text = textOf(reply);
    });
    await vi.advanceTimersByTimeAsync(99);
    expect(text).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(text).toBe('d:x');
  });
});

describe('ManualAgent', () => {
  it('replies when the test responds', async () => {
    const agent = new ManualAgent({ name: 'm' });
    const reply = lastValueFrom(agent.call(userMsg('x')));
    expect(agent.isPending).toBe(true);
    agent.respond('done');
    expect(textOf(await reply)).toBe('done');
    expect(agent.isPending).toBe(false);
  });

  it('errors when the test fails the call', async () => {
    const agent = new ManualAgent({ name: 'm' });
    const reply = lastValueFrom(agent.call());
    agent.fail(new Error('nope'));
    await expect(reply).rejects.toThrow('nope');
  });

  it('forgets a call cancelled by unsubscribe and refuses to settle without a pending call', () => {
    const agent = new ManualAgent({ name: 'm' });
    agent.call().subscribe().unsubscribe();
    expect(agent.isPending).toBe(false);
    expect(agent.signals[0]?.aborted).toBe(true);
    expect(() => agent.respond('late')).toThrow(/no pending call/);
  });
});
