import {
  AgentHost,
  type ChatMessage,
  InMemorySession,
  type JsonObject,
  type Session,
  textOf,
  userMsg,
} from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';

/** The user and assistant texts of a request, in order. */
function dialogue(messages: readonly ChatMessage[]): string[] {
  return messages
    .filter((m) => m.role === 'user' || m.role === 'assistant')
    .map((m) => `${m.role}:${typeof m.content === 'string' ? m.content : ''}`);
}

/** A host of ReActAgents that all answer from one scripted model (replies echo the input). */
function echoHost(options: { session?: Session; maxLive?: number } = {}) {
  const model = new ScriptedChatModel([], { strict: true });
  const answer = (): void => {
    model.enqueue((request) => {
      const last = request.messages.at(-1);
      return `re: ${typeof last?.content === 'string' ? last.content : '?'}`;
    });
  };
  const host = new AgentHost({
    create: () => new ReActAgent({ name: 'assistant', sysPrompt: 'Be brief.', model }),
    ...options,
  });
  return { host, model, answer };
}

describe('AgentHost with ReActAgents', () => {
  it('keeps each thread its own conversation', async () => {
    const { host, model, answer } = echoHost();
    for (const [thread, text] of [
      ['a', 'one'],
      ['b', 'two'],
      ['a', 'three'],
    ] as const) {
      answer();
      await host.reply(thread, text);
    }
    expect(dialogue(model.requests[2]?.messages ?? [])).toEqual([
      'user:one',
      'assistant:re: one',
      'user:three',
    ]);
  });

  it('evicts beyond maxLive and reloads with memory intact, from the session', async () => {
    const session = new InMemorySession();
    const { host, model, answer } = echoHost({ session, maxLive: 1 });
    answer();
    await host.reply('a', 'first');
    answer();
    await host.reply('b', 'other');
    await new Promise((resolve) => setImmediate(resolve));
    expect(host.isLive('a')).toBe(false);

    answer();
    await host.reply('a', 'second');
    expect(dialogue(model.requests[2]?.messages ?? [])).toEqual([
      'user:first',
      'assistant:re: first',
      'user:second',
    ]);
  });

  it('evicts and reloads with memory intact without a session', async () => {
    const { host, model, answer } = echoHost({ maxLive: 1 });
    answer();
    await host.reply('a', 'first');
    answer();
    await host.reply('b', 'other');
    await new Promise((resolve) => setImmediate(resolve));
    expect(host.isLive('a')).toBe(false);

    answer();
    await host.reply('a', 'second');
    expect(dialogue(model.requests[2]?.messages ?? [])).toContain('assistant:re: first');
  });

  it('loads a thread saved by another host (a restart) and saves after each call', async () => {
    const session = new InMemorySession();
    const first = echoHost({ session });
    first.answer();
    await first.host.reply('t', 'before restart');

    const second = echoHost({ session });
    second.answer();
    await second.host.reply('t', 'after restart');
    expect(dialogue(second.model.requests[0]?.messages ?? [])).toEqual([
      'user:before restart',
      'assistant:re: before restart',
      'user:after restart',
    ]);
    const saved = (await session.load('t')) as JsonObject;
    expect(JSON.stringify(saved)).toContain('after restart');
  });

  it('steers an idle thread into its conversation before its next call', async () => {
    const session = new InMemorySession();
    const { host, model, answer } = echoHost({ session });
    await host.steer('t', 'I use metric units.');
    expect(JSON.stringify(await session.load('t'))).toContain('I use metric units.');

    answer();
    await host.reply('t', 'How warm is it?');
    expect(dialogue(model.requests[0]?.messages ?? [])).toEqual([
      'user:I use metric units.',
      'user:How warm is it?',
    ]);
  });

  it('fails the call with the session error when the save fails, and keeps the thread live', async () => {
    const failing: Session = {
      save: () => Promise.reject(new Error('disk full')),
      load: () => Promise.resolve(undefined),
      delete: () => Promise.resolve(),
      list: () => Promise.resolve([]),
    };
    const { host, answer } = echoHost({ session: failing });
    answer();
    await expect(host.reply('t', 'hi')).rejects.toThrow('disk full');
    expect(host.isLive('t')).toBe(true);
  });

  it('fails the call with the load error and tries the load again on the next call', async () => {
    let loads = 0;
    const flaky: Session = {
      save: () => Promise.resolve(),
      load: () =>
        ++loads === 1 ? Promise.reject(new Error('no route')) : Promise.resolve(undefined),
      delete: () => Promise.resolve(),
      list: () => Promise.resolve([]),
    };
    const { host, answer } = echoHost({ session: flaky });
    await expect(host.reply('t', 'hi')).rejects.toThrow('no route');
    answer();
    expect(textOf(await host.reply('t', 'again'))).toBe('re: again');
  });

  it('applies an interrupt and steered messages that arrive while the thread is still loading', async () => {
    let release = (): void => {};
    const slow: Session = {
      save: () => Promise.resolve(),
      load: () => new Promise((resolve) => (release = () => resolve(undefined))),
      delete: () => Promise.resolve(),
      list: () => Promise.resolve([]),
    };
    const { host, model, answer } = echoHost({ session: slow });
    answer();
    const steered = host.reply('s', 'question');
    await new Promise((resolve) => setImmediate(resolve));
    void host.steer('s', 'and one more thing');
    release();
    await steered;
    expect(dialogue(model.requests[0]?.messages ?? [])).toEqual([
      'user:question',
      'user:and one more thing',
    ]);

    model.enqueue({ text: 'a long answer', delayMs: 60_000 });
    const interrupted = host.reply('i', 'question');
    await new Promise((resolve) => setImmediate(resolve));
    host.interrupt('i');
    release();
    expect((await interrupted).metadata['generateReason']).toBe('interrupted');
  });
});

describe('AgentHost with durable agents', () => {
  it('leaves saving to the checkpoints: an evicted thread is reloaded from its checkpoint, never from a plain save', async () => {
    const session = new InMemorySession();
    const model = new ScriptedChatModel([], { strict: true });
    const answer = (): void =>
      model.enqueue((request) => `re: ${String(request.messages.at(-1)?.content)}`);
    const host = new AgentHost({
      create: (threadId) =>
        new ReActAgent({
          name: 'assistant',
          sysPrompt: 'Be brief.',
          model,
          durable: { session, key: threadId },
        }),
      session,
      maxLive: 1,
      durable: true,
    });
    expect(host.durable).toBe(true);
    answer();
    await host.reply('a', 'first');
    answer();
    await host.reply('b', 'other');
    await new Promise((resolve) => setImmediate(resolve));
    expect(host.isLive('a')).toBe(false);
    const saved = (await session.load('a')) as JsonObject;
    expect(saved['format']).toBe('rxagent.checkpoint/3');

    answer();
    await host.reply('a', 'second');
    expect(dialogue(model.requests[2]?.messages ?? [])).toEqual([
      'user:first',
      'assistant:re: first',
      'user:second',
    ]);
    expect(((await session.load('a')) as JsonObject)['format']).toBe('rxagent.checkpoint/3');
  });

  it('delete(threadId) removes the checkpoint with its segments, and only that thread', async () => {
    const session = new InMemorySession();
    const model = new ScriptedChatModel([], { strict: true });
    const answer = (): void =>
      model.enqueue((request) => `re: ${String(request.messages.at(-1)?.content)}`);
    const host = new AgentHost({
      create: (threadId) =>
        new ReActAgent({
          name: 'assistant',
          sysPrompt: 'Be brief.',
          model,
          durable: { session, key: threadId, segmentSize: 2 },
        }),
      session,
      durable: true,
    });
    for (const text of ['one', 'two', 'three']) {
      answer();
      await host.reply('a', text);
    }
    answer();
    await host.reply('b', 'other');
    const keysOf = async (thread: string) =>
      (await session.list()).filter((key) => key === thread || key.startsWith(`${thread}~seg.`));
    expect(await keysOf('a')).toHaveLength(4); // the head and three sealed pairs
    expect(await keysOf('b')).toHaveLength(2);
    await host.delete('a');
    expect(await keysOf('a')).toEqual([]);
    expect(await keysOf('b')).toHaveLength(2);
    answer();
    await host.reply('b', 'again');
    expect(dialogue(model.requests.at(-1)?.messages ?? [])).toEqual([
      'user:other',
      'assistant:re: other',
      'user:again',
    ]);
  });

  it('recover(threadId, inputId) gives the stored reply of a finished request, and nothing for another', async () => {
    const session = new InMemorySession();
    const model = new ScriptedChatModel(['done']);
    const create = (threadId: string) =>
      new ReActAgent({
        name: 'assistant',
        sysPrompt: '',
        model,
        durable: { session, key: threadId },
      });
    const first = new AgentHost({ create, session, durable: true });
    const input = userMsg('do it');
    const reply = await first.reply('t', input);

    const second = new AgentHost({ create, session, durable: true });
    const again = await lastValueFrom(second.recover('t', input.id).pipe(toArray()));
    expect(again.map((event) => (event.type === 'reply' ? event.msg.id : event.type))).toEqual([
      reply.id,
    ]);
    expect(await lastValueFrom(second.recover('t', 'another').pipe(toArray()))).toEqual([]);
    await expect(lastValueFrom(new AgentHost({ create }).recover('t', input.id))).rejects.toThrow(
      /not durable/,
    );
  });
});
