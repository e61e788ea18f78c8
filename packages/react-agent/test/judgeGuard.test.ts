import { Toolkit, textOf, tool, userMsg } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { JudgeGuard, ReActAgent } from '@rxagent/react-agent';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harness, run, transcript, wireMessages } from './harness.js';

const REQUEST = 'Give me the capital of France and of Spain.';

describe('JudgeGuard', () => {
  it('accepts a draft the judge passes', async () => {
    const judge = new ScriptedChatModel(['PASS']);
    const { agent } = await harness(['Paris and Madrid.'], {
      finishGuard: new JudgeGuard({ model: judge }),
    });

    const reply = await run(agent, userMsg(REQUEST));

    expect(textOf(reply)).toBe('Paris and Madrid.');
    expect(reply.metadata['finishGuard']).toMatchObject({ pass: true, verdict: 'pass' });
    const judged = judge.requests[0]!.messages;
    expect(judged).toHaveLength(2);
    expect(judged[1]?.content).toContain(REQUEST);
    expect(judged[1]?.content).toContain('Paris and Madrid.');
    expect(judge.requests[0]!.tools).toBeUndefined();
  });

  it('drops a rejected draft and sends the feedback as a user message named system', async () => {
    const judge = new ScriptedChatModel(['FAIL: the capital of Spain is missing.', 'PASS']);
    const { server, agent } = await harness(['Paris.', 'Paris and Madrid.'], {
      finishGuard: new JudgeGuard({ model: judge }),
    });

    const reply = await run(agent, userMsg(REQUEST));

    expect(textOf(reply)).toBe('Paris and Madrid.');
    expect(transcript(agent.memory.messages())).toEqual([
      `user:${REQUEST}`,
      'user:[Judge feedback] the capital of Spain is missing.',
      'assistant:Paris and Madrid.',
    ]);
    expect(agent.memory.messages()[1]?.name).toBe('system');
    expect(agent.memory.messages()[1]?.metadata).toMatchObject({ feedback: 'judge' });
    expect(wireMessages(server, 1)[2]).toEqual({
      role: 'user',
      name: 'system',
      content: '[Judge feedback] the capital of Spain is missing.',
    });
  });

  it('lets the answer through after maxRetries rejections', async () => {
    const judge = new ScriptedChatModel(['FAIL: incomplete', 'FAIL: still incomplete']);
    const { server, agent } = await harness(['Paris.', 'Paris!', 'Paris!!'], {
      finishGuard: new JudgeGuard({ model: judge, maxRetries: 2 }),
    });

    const reply = await run(agent, userMsg(REQUEST));

    expect(textOf(reply)).toBe('Paris!!');
    expect(judge.requests).toHaveLength(2);
    expect(server.requests).toHaveLength(3);
    expect(reply.metadata['finishGuard']).toMatchObject({ verdict: 'max_retries', rejections: 2 });
  });

  it('fails open when the judge errors', async () => {
    const judge = new ScriptedChatModel([{ error: { status: 500, message: 'judge down' } }]);
    const { agent } = await harness(['Paris and Madrid.'], {
      finishGuard: new JudgeGuard({ model: judge }),
    });

    const reply = await run(agent, userMsg(REQUEST));

    expect(textOf(reply)).toBe('Paris and Madrid.');
    expect(reply.metadata['finishGuard']).toMatchObject({ pass: true, verdict: 'guard_error' });
  });
});

describe('JudgeGuard after steer()', () => {
  it('judges against the call input plus every steered message, not only the latest user message', async () => {
    const judge = new ScriptedChatModel(['PASS']);
    let agent!: ReActAgent;
    const lookup = tool({
      name: 'lookup',
      description: 'Looks a capital up.',
      parameters: z.object({ country: z.string() }),
      execute: ({ country }) => {
        agent.steer('Also give me the capital of Italy.');
        return country === 'France' ? 'Paris' : 'Madrid';
      },
    });
    agent = new ReActAgent({
      name: 'geo',
      sysPrompt: 'You answer geography questions.',
      model: new ScriptedChatModel([
        { toolCalls: [{ id: 'l1', name: 'lookup', arguments: { country: 'France' } }] },
        'Paris, Madrid and Rome.',
      ]),
      toolkit: new Toolkit([lookup]),
      finishGuard: new JudgeGuard({ model: judge }),
    });

    const reply = await agent.reply(REQUEST);

    expect(textOf(reply)).toBe('Paris, Madrid and Rome.');
    const judged = String(judge.requests[0]!.messages[1]?.content);
    expect(judged).toContain(REQUEST);
    expect(judged).toContain('Also give me the capital of Italy.');
    expect(judged.indexOf(REQUEST)).toBeLessThan(judged.indexOf('capital of Italy'));
  });
});
