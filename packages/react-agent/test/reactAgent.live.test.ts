import {
  type ChatMessage,
  InvalidArgumentError,
  type Msg,
  Toolkit,
  textOf,
  tool,
  userMsg,
} from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** The text of every user-role wire message of a request. */
function userTexts(messages: readonly ChatMessage[]): string[] {
  return messages
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
}

/** A promise and its resolver. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** An agent whose `look` tool runs `during` while it executes. */
function agentWithTool(
  script: ConstructorParameters<typeof ScriptedChatModel>[0],
  during: (agent: ReActAgent) => void | Promise<void>,
) {
  const model = new ScriptedChatModel(script);
  let self: ReActAgent | undefined;
  const look = tool({
    name: 'look',
    description: 'Looks around.',
    parameters: z.object({}),
    execute: async () => {
      await during(self as ReActAgent);
      return 'a quiet room';
    },
  });
  self = new ReActAgent({
    name: 'assistant',
    sysPrompt: 'Be brief.',
    model,
    toolkit: new Toolkit([look]),
  });
  return { agent: self, model };
}

const LOOK = { toolCalls: [{ id: 'c1', name: 'look', arguments: {} }] };

describe('ReActAgent.steer()', () => {
  it('rejects an empty message with InvalidArgumentError, storing nothing, idle or during a call', async () => {
    const errors: unknown[] = [];
    const { agent } = agentWithTool([LOOK, 'ok'], (a) => {
      for (const empty of ['', '   ', []]) {
        try {
          a.steer(empty);
        } catch (error) {
          errors.push(error);
        }
      }
    });
    expect(() => agent.steer('')).toThrow(InvalidArgumentError);
    expect(() => agent.steer('')).toThrow('assistant.steer(): the message is empty');
    expect(() => agent.steer(userMsg(''))).toThrow(InvalidArgumentError);
    expect(agent.memory.messages()).toEqual([]);
    await agent.reply('Look around.');
    expect(errors).toHaveLength(3);
    for (const error of errors) expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(agent.memory.messages().map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
  });

  it('sends a message steered during a tool with the very next request, once, with no extra request', async () => {
    let steered: Msg | undefined;
    const { agent, model } = agentWithTool([LOOK, 'Done, and noted.'], (a) => {
      steered = userMsg('Also check the window.');
      a.steer(steered);
    });

    const reply = await agent.reply('Look around.');

    expect(model.requests).toHaveLength(2);
    expect(userTexts(model.requests[0]?.messages ?? [])).toEqual(['Look around.']);
    expect(userTexts(model.requests[1]?.messages ?? [])).toEqual([
      'Look around.',
      'Also check the window.',
    ]);
    expect(reply.metadata['steered']).toEqual([steered?.id]);
    const stored = agent.memory.messages().filter((m) => textOf(m) === 'Also check the window.');
    expect(stored).toHaveLength(1);
    expect(stored[0]?.id).toBe(steered?.id);
  });

  it('sends the steered message after the tool results of the batch, keeping the conversation valid', async () => {
    const { agent, model } = agentWithTool([LOOK, 'ok'], (a) => a.steer('and the door'));

    await agent.reply('Look.');

    expect(model.requests[1]?.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'user',
    ]);
  });

  it('stores a message steered while idle, so the next call sees it', async () => {
    const model = new ScriptedChatModel(['Hello.']);
    const agent = new ReActAgent({ name: 'assistant', sysPrompt: 'Be brief.', model });

    agent.steer('Remember: I prefer metric units.');
    const reply = await agent.reply('Hi');

    expect(userTexts(model.requests[0]?.messages ?? [])).toEqual([
      'Remember: I prefer metric units.',
      'Hi',
    ]);
    expect(reply.metadata['steered']).toBeUndefined();
  });

  it('stores a message steered after the last request once the call ends, for the next call', async () => {
    let agent: ReActAgent | undefined;
    const model = new ScriptedChatModel([
      () => {
        agent?.steer('too late for this one');
        return 'First answer.';
      },
      'Second answer.',
    ]);
    agent = new ReActAgent({ name: 'assistant', sysPrompt: 'Be brief.', model });

    const first = await agent.reply('One');
    expect(first.metadata['steered']).toBeUndefined();
    expect(model.requests).toHaveLength(1);
    expect(agent.memory.messages().map(textOf)).toEqual([
      'One',
      'First answer.',
      'too late for this one',
    ]);

    await agent.reply('Two');
    expect(userTexts(model.requests[1]?.messages ?? [])).toEqual([
      'One',
      'too late for this one',
      'Two',
    ]);
  });

  it('rejects steered input that is not a Msg', () => {
    const agent = new ReActAgent({
      name: 'assistant',
      sysPrompt: '',
      model: new ScriptedChatModel([]),
    });
    expect(() => agent.steer(42 as never)).toThrow(/assistant\.steer\(\): input\[0\] is not a Msg/);
  });
});

describe('ReActAgent.queue()', () => {
  it('runs queued calls one after another in subscription order', async () => {
    const gate = deferred();
    let first = true;
    const { agent, model } = agentWithTool([LOOK, 'one', 'two', 'three'], async () => {
      if (first) {
        first = false;
        await gate.promise;
      }
    });
    const order: string[] = [];
    const replies = ['A', 'B', 'C'].map((input) =>
      lastValueFrom(agent.queue(input)).then((reply) => {
        order.push(`${input}:${textOf(reply)}`);
      }),
    );

    await new Promise((resolve) => setImmediate(resolve));
    expect(model.requests).toHaveLength(1); // B and C wait while A's tool runs
    gate.resolve();
    await Promise.all(replies);

    expect(order).toEqual(['A:one', 'B:two', 'C:three']);
    expect(userTexts(model.requests[3]?.messages ?? [])).toEqual(['A', 'B', 'C']);
  });

  it('waits for a plain call() in flight instead of failing busy', async () => {
    const gate = deferred();
    const { agent } = agentWithTool([LOOK, 'first', 'second'], () => gate.promise);
    const running = agent.reply('plain');
    await new Promise((resolve) => setImmediate(resolve));

    const queued = lastValueFrom(agent.queue('queued'));
    gate.resolve();

    expect(textOf(await running)).toBe('first');
    expect(textOf(await queued)).toBe('second');
  });

  it('forgets a waiting call that is unsubscribed: it never runs', async () => {
    const gate = deferred();
    const { agent, model } = agentWithTool([LOOK, 'first', 'third'], () => gate.promise);
    const running = agent.reply('one');
    await new Promise((resolve) => setImmediate(resolve));

    const dropped = agent.queue('two').subscribe();
    const kept = lastValueFrom(agent.queue('three'));
    dropped.unsubscribe();
    gate.resolve();

    await running;
    expect(textOf(await kept)).toBe('third');
    expect(model.requests.flatMap((r) => userTexts(r.messages))).not.toContain('two');
  });

  it('starts the next queued call after one that failed', async () => {
    const model = new ScriptedChatModel([{ error: { status: 400, message: 'bad' } }, 'fine']);
    const agent = new ReActAgent({ name: 'assistant', sysPrompt: 'Be brief.', model });
    const failed = lastValueFrom(agent.queue('x')).then(
      () => 'resolved',
      (error: Error) => error.name,
    );
    const next = lastValueFrom(agent.queue('y'));

    expect(await failed).not.toBe('resolved');
    expect(textOf(await next)).toBe('fine');
  });
});
