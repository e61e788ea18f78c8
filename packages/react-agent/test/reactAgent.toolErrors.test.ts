import {
  type AgentEvent,
  type ChatMessage,
  type PostActingEvent,
  Toolkit,
  tool,
  userMsg,
} from '@rxagent/core';
import { lastValueFrom, toArray } from 'rxjs';
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
});
