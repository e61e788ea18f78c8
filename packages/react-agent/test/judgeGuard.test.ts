import { textOf, userMsg } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { JudgeGuard } from '@rxagent/react-agent';
import { describe, expect, it } from 'vitest';
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
