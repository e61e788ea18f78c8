import {
  type AgentEvent,
  type ChatMessage,
  type PostActingEvent,
  Toolkit,
  tool,
  userMsg,
} from '@rxagent/core';
import { lastValueFrom, throwError, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harness, wireMessages } from './harness.js';

class QuotaError extends Error {
  override readonly name = 'QuotaError';
}

const SCRIPT = [
  { toolCalls: [{ id: 'c1', name: 'fetch_quota', arguments: {} }] },
  'No quota left.',
];

function quotaTool(thrown: Error) {
  return tool({
    name: 'fetch_quota',
    description: 'Reads the quota.',
    parameters: z.object({}),
    execute: async () => {
      throw thrown;
    },
  });
}

describe('ReActAgent tool exceptions', () => {
  it('gives postActing hooks the thrown error while the model reads its text', async () => {
    const thrown = new QuotaError('quota exhausted');
    const { server, agent } = await harness(SCRIPT, { toolkit: new Toolkit([quotaTool(thrown)]) });
    const seen: PostActingEvent[] = [];
    agent.addHook({
      onEvent: (event) => {
        if (event.type === 'postActing') seen.push(event);
      },
    });
    const events = await lastValueFrom(agent.stream(userMsg('Check my quota.')).pipe(toArray()));
    expect(seen).toHaveLength(1);
    expect(seen[0]!.error).toBe(thrown);
    expect((seen[0]!.error as Error).stack).toContain('QuotaError: quota exhausted');
    // stream() shows it too.
    const post = events.find(
      (e): e is Extract<AgentEvent, { type: 'postActing' }> => e.type === 'postActing',
    );
    expect(post?.error).toBe(thrown);
    // The model got the readable text.
    const sent = wireMessages(server, 1).at(-1) as ChatMessage;
    expect(sent).toMatchObject({
      role: 'tool',
      tool_call_id: 'c1',
      content: 'Tool "fetch_quota" failed: quota exhausted',
    });
    // Memory and state hold no error object: they stay JSON.
    const state = agent.stateDict();
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
    expect(JSON.stringify(state)).not.toContain('QuotaError');
  });

  it('sets no error on postActing for a successful or framework-made result', async () => {
    const ok = tool({
      name: 'fetch_quota',
      description: 'Reads.',
      parameters: z.object({}),
      execute: () => '5 left',
    });
    const { agent } = await harness(
      [
        {
          toolCalls: [
            { id: 'c1', name: 'fetch_quota', arguments: {} },
            { id: 'c2', name: 'missing', arguments: {} },
          ],
        },
        'Five.',
      ],
      { toolkit: new Toolkit([ok]) },
    );
    const seen: PostActingEvent[] = [];
    agent.addHook({
      onEvent: (event) => {
        if (event.type === 'postActing') seen.push(event);
      },
    });
    await lastValueFrom(agent.call(userMsg('Check my quota.')));
    expect(seen.map((e) => [e.result.isError === true, 'error' in e])).toEqual([
      [false, false],
      [true, false],
    ]);
  });

  it('turns a throw, a rejection, a timeout and a bad value into the toolkit results, hooks in order', async () => {
    const thrown = new QuotaError('thrown');
    const rejected = new QuotaError('rejected');
    const make = (name: string, execute: () => unknown, timeoutMs?: number) =>
      tool({
        name,
        description: name,
        parameters: z.object({}),
        execute: execute as () => string,
        ...(timeoutMs !== undefined && { timeoutMs }),
      });
    const tools = () => [
      make('throws', () => {
        throw thrown;
      }),
      make('rejects', () => Promise.reject(rejected)),
      make('hangs', () => new Promise(() => undefined), 20),
      make('bad', () => undefined),
      make('ok', () => 'fine'),
    ];
    const names = ['throws', 'rejects', 'hangs', 'bad', 'ok'];
    const { agent } = await harness(
      [{ toolCalls: names.map((name, i) => ({ id: `c${i}`, name, arguments: {} })) }, 'Done.'],
      { toolkit: new Toolkit(tools()) },
    );
    const order: string[] = [];
    const posted: PostActingEvent[] = [];
    agent.addHook({
      onEvent: (event) => {
        if (event.type === 'preActing') order.push(`pre ${event.toolCall.name}`);
        if (event.type === 'postActing') {
          order.push(`post ${event.toolCall.name}`);
          posted.push(event);
        }
      },
    });
    await lastValueFrom(agent.call(userMsg('Run them all.')));
    // What the toolkit's Observable gives for each call, run on its own.
    const reference = new Toolkit(tools());
    const expected = await Promise.all(
      names.map(async (name, i) => {
        const events = await lastValueFrom(
          reference
            .execute(
              { id: `c${i}`, name, input: {} },
              { signal: new AbortController().signal, toolCallId: `c${i}` },
            )
            .pipe(toArray()),
        );
        const last = events.at(-1);
        return last?.type === 'result' ? last.result : undefined;
      }),
    );
    // Posted as each call ends (in parallel): compare by call id.
    const byId = [...posted].sort((a, b) => a.toolCall.id.localeCompare(b.toolCall.id));
    expect(byId.map((event) => event.result)).toEqual(expected);
    expect(byId.map((event) => event.error)).toEqual([
      thrown,
      rejected,
      undefined,
      undefined,
      undefined,
    ]);
    // Each call's preActing comes before its postActing; the calls run in parallel.
    for (const name of names) {
      expect(order.indexOf(`pre ${name}`)).toBeLessThan(order.indexOf(`post ${name}`));
    }
    // A call whose tool answers synchronously ends before the next one starts.
    expect(order).toEqual([
      'pre throws',
      'post throws',
      'pre rejects',
      'pre hangs',
      'pre bad',
      'post bad',
      'pre ok',
      'post ok',
      'post rejects',
      'post hangs',
    ]);
  });

  it('answers an interrupt of a running tool with the toolkit result', async () => {
    let toolSignal: AbortSignal | undefined;
    const hangs = tool({
      name: 'hangs',
      description: 'Never answers.',
      parameters: z.object({}),
      execute: (_, context) => {
        toolSignal = context.signal;
        return new Promise<string>(() => undefined);
      },
    });
    const { agent } = await harness(
      [{ toolCalls: [{ id: 'c1', name: 'hangs', arguments: {} }] }, 'Stopped.'],
      { toolkit: new Toolkit([hangs]) },
    );
    const posted: PostActingEvent[] = [];
    agent.addHook({
      onEvent: (event) => {
        if (event.type === 'preActing') queueMicrotask(() => agent.interrupt());
        if (event.type === 'postActing') posted.push(event);
      },
    });
    await lastValueFrom(agent.call(userMsg('Wait.')).pipe(toArray()));
    expect(toolSignal?.aborted).toBe(true);
    expect(posted.map((event) => [event.result.isError, event.result.output])).toEqual([
      [true, '[interrupted] Tool "hangs" was interrupted before it finished.'],
    ]);
  });

  it('runs tool calls through an execute a Toolkit subclass overrides', async () => {
    const seen: string[] = [];
    class Audited extends Toolkit {
      override execute(...args: Parameters<Toolkit['execute']>) {
        seen.push(args[0].name);
        return super.execute(...args);
      }
    }
    const ok = tool({
      name: 'fetch_quota',
      description: 'Reads.',
      parameters: z.object({}),
      execute: () => '5 left',
    });
    const { agent } = await harness(SCRIPT, { toolkit: new Audited([ok]) });
    const reply = await lastValueFrom(agent.call(userMsg('Check my quota.')));
    expect(seen).toEqual(['fetch_quota']);
    expect(reply.content).toEqual([{ type: 'text', text: 'No quota left.' }]);
  });

  it('fails the call with the error of a Toolkit subclass whose execute errors', async () => {
    const broken = new Error('broken toolkit');
    class Broken extends Toolkit {
      override execute() {
        return throwError(() => broken);
      }
    }
    const ok = tool({
      name: 'fetch_quota',
      description: 'Reads.',
      parameters: z.object({}),
      execute: () => '5 left',
    });
    const { agent } = await harness(SCRIPT, { toolkit: new Broken([ok]) });
    await expect(lastValueFrom(agent.call(userMsg('Check my quota.')))).rejects.toBe(broken);
  });
});
