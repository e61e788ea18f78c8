import { TaskState } from '@a2a-js/sdk';
import { a2aHandler } from '@rxagent/a2a';
import { type AgentBase, AgentHost, InMemorySession } from '@rxagent/core';
import { startStrictOpenAIServer } from '@rxagent/core/testing';
import { OpenAIChatModel, ReActAgent } from '@rxagent/react-agent';
import { afterEach, describe, expect, it } from 'vitest';
import { opsAgent } from './agents.js';
import {
  artifactText,
  asTask,
  type Loopback,
  label,
  listen,
  request,
  sdkClient,
} from './loopback.js';

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const card = { name: 'ops', description: 'Looks after files.' };

async function serve(
  agent: AgentBase | ((contextId: string) => AgentBase) | AgentHost,
  streamIntervalMs = 0,
): Promise<string> {
  server = await listen(a2aHandler(agent, { card, streamIntervalMs }));
  return server.url;
}

describe('a2aHandler, called by the @a2a-js/sdk client', () => {
  it('serves the card and answers a sent message with a completed task holding the reply', async () => {
    const url = await serve(opsAgent(['All files are in order.']));
    const client = await sdkClient(url);
    const served = await client.getAgentCard();
    expect(served).toMatchObject({ name: 'ops', capabilities: { streaming: true } });
    expect(served.supportedInterfaces[0]).toMatchObject({
      url,
      protocolBinding: 'JSONRPC',
      protocolVersion: '1.0',
    });
    const task = asTask(await client.sendMessage(request('Check the files', { contextId: 'c1' })));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.contextId).toBe('c1');
    expect(artifactText(task)).toBe('All files are in order.');
    const got = await client.getTask({ tenant: '', id: task.id });
    expect(got.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(got)).toBe('All files are in order.');
  });

  it('streams the task, working, the text as it is generated, the whole text, then completed', async () => {
    const url = await serve(opsAgent(['one two three']));
    const client = await sdkClient(url);
    const labels: string[] = [];
    for await (const response of client.sendMessageStream(request('Count')))
      labels.push(label(response));
    expect(labels).toEqual([
      'task',
      `status:${TaskState.TASK_STATE_WORKING}`,
      'artifact:one',
      'artifact+: two',
      'artifact+: three',
      'artifact!:one two three',
      `status:${TaskState.TASK_STATE_COMPLETED}`,
    ]);
  });

  it('batches the streamed text after the first chunk into one update per interval', async () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    const url = await serve(opsAgent([{ text: words, chunkDelayMs: 2 }]), 30);
    const client = await sdkClient(url);
    const labels: string[] = [];
    for await (const response of client.sendMessageStream(request('Count')))
      labels.push(label(response));
    const appended = labels.filter((l) => l.startsWith('artifact+:'));
    expect(labels[2]).toBe('artifact:w0');
    // 40 chunks over at least 80 ms: fewer updates than chunks, in order; the final update
    // (the whole text) replaces them, including what was still waiting for its interval.
    expect(appended.length).toBeGreaterThan(0);
    expect(appended.length).toBeLessThan(39);
    const streamed = ['w0', ...appended.map((l) => l.slice('artifact+:'.length))].join('');
    expect(labels.at(-2)).toBe(`artifact!:${words}`);
    expect(words.startsWith(streamed)).toBe(true);
  });
});

describe('a2aHandler: cancel, approval, contexts', () => {
  it('cancels a running task within a second; the context goes on with a valid conversation', async () => {
    const agent = opsAgent([{ text: 'a very slow answer', delayMs: 60_000 }, 'Next answer.']);
    const url = await serve(agent);
    const client = await sdkClient(url);
    const stream = client.sendMessageStream(request('Think hard', { contextId: 'c-cancel' }));
    const labels: string[] = [];
    let elapsed = -1;
    for await (const response of stream) {
      labels.push(label(response));
      if (labels.length === 2) {
        const taskId =
          response.payload?.$case === 'statusUpdate' ? response.payload.value.taskId : '';
        const started = performance.now();
        const canceled = await client.cancelTask({ tenant: '', id: taskId, metadata: undefined });
        elapsed = performance.now() - started;
        expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
      }
    }
    expect(elapsed).toBeGreaterThanOrEqual(0);
    expect(elapsed).toBeLessThan(1000);
    expect(labels.at(-1)).toBe(`status:${TaskState.TASK_STATE_CANCELED}`);
    expect(agent.memory.messages().at(-1)?.metadata['generateReason']).toBe('interrupted');
    const next = asTask(await client.sendMessage(request('Go on', { contextId: 'c-cancel' })));
    expect(artifactText(next)).toBe('Next answer.');
  });

  it('leaves a conversation the strict OpenAI-compatible server accepts after a cancel', async () => {
    const strict = await startStrictOpenAIServer({
      script: [{ text: 'a slow answer that never ends', chunkDelayMs: 60_000 }, 'Fresh answer.'],
    });
    try {
      const agent = new ReActAgent({
        name: 'ops',
        sysPrompt: 'You look after files.',
        model: new OpenAIChatModel({
          baseURL: strict.baseURL,
          apiKey: 'test',
          model: 'test-model',
        }),
      });
      const url = await serve(agent);
      const client = await sdkClient(url);
      for await (const response of client.sendMessageStream(
        request('Start', { contextId: 'c-strict' }),
      )) {
        if (response.payload?.$case === 'artifactUpdate')
          await client.cancelTask({
            tenant: '',
            id: response.payload.value.taskId,
            metadata: undefined,
          });
      }
      const next = asTask(await client.sendMessage(request('Again', { contextId: 'c-strict' })));
      expect(next.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(artifactText(next)).toBe('Fresh answer.');
      expect(strict.rejected).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });

  it('stops for approval as input-required with the pending calls, and resumes on the decisions', async () => {
    const agent = opsAgent([
      { toolCalls: [{ id: 'call_rm', name: 'delete_file', arguments: { path: 'old.log' } }] },
      'Deleted old.log.',
    ]);
    const url = await serve(agent);
    const client = await sdkClient(url);
    const stopped = asTask(await client.sendMessage(request('Clean up', { contextId: 'c-ok' })));
    expect(stopped.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    // The stop has no text of its own: the status message is the data part alone.
    expect(stopped.status?.message?.parts.map((part) => part.content?.$case)).toEqual(['data']);
    const data = stopped.status?.message?.parts.find((part) => part.content?.$case === 'data');
    expect(data?.content?.value).toEqual({
      pendingToolCalls: [
        { id: 'call_rm', name: 'delete_file', arguments: { path: 'old.log' }, needsApproval: true },
      ],
    });
    expect(agent.deleted).toEqual([]);
    const resumed = asTask(
      await client.sendMessage(
        request({ approve: ['call_rm'] }, { contextId: 'c-ok', taskId: stopped.id }),
      ),
    );
    expect(resumed.id).toBe(stopped.id);
    expect(resumed.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(resumed)).toContain('Deleted old.log.');
    expect(agent.deleted).toEqual(['old.log']);
  });

  it('runs an edited call with the edited arguments, recording who decided', async () => {
    const agent = opsAgent([
      { toolCalls: [{ id: 'call_rm', name: 'delete_file', arguments: { path: 'db.sqlite' } }] },
      'Deleted the log instead.',
    ]);
    const url = await serve(agent);
    const client = await sdkClient(url);
    const stopped = asTask(await client.sendMessage(request('Clean up')));
    const resumed = asTask(
      await client.sendMessage(
        request(
          { edit: { call_rm: { path: 'old.log' } }, by: 'ops-lead' },
          { contextId: stopped.contextId, taskId: stopped.id },
        ),
      ),
    );
    expect(resumed.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(agent.deleted).toEqual(['old.log']);
    const result = agent.memory.messages().find((msg) => msg.role === 'tool');
    expect(result?.metadata['decision']).toMatchObject({ decision: 'edited', by: 'ops-lead' });
  });

  it('denies a call with the reason the model reads', async () => {
    const agent = opsAgent([
      { toolCalls: [{ id: 'call_rm', name: 'delete_file', arguments: { path: 'db.sqlite' } }] },
      (req) => `Not deleted: ${JSON.stringify(req.messages.at(-1))}`,
    ]);
    const url = await serve(agent);
    const client = await sdkClient(url);
    const stopped = asTask(await client.sendMessage(request('Clean up')));
    const resumed = asTask(
      await client.sendMessage(
        request(
          { deny: { call_rm: 'keep the database' } },
          { contextId: stopped.contextId, taskId: stopped.id },
        ),
      ),
    );
    expect(artifactText(resumed)).toContain('[denied] keep the database');
    expect(agent.deleted).toEqual([]);
  });

  it('cancels a task waiting for input', async () => {
    const url = await serve(
      opsAgent([{ toolCalls: [{ id: 'call_rm', name: 'delete_file', arguments: { path: 'x' } }] }]),
    );
    const client = await sdkClient(url);
    const stopped = asTask(await client.sendMessage(request('Clean up')));
    const canceled = await client.cancelTask({ tenant: '', id: stopped.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('keeps two contexts apart: one agent per contextId from the factory', async () => {
    const agents = new Map<string, ReturnType<typeof opsAgent>>();
    const url = await serve((contextId) => {
      const agent = opsAgent([`first in ${contextId}`, `second in ${contextId}`], 'ops');
      agents.set(contextId, agent);
      return agent;
    });
    const client = await sdkClient(url);
    const a1 = asTask(await client.sendMessage(request('hello A', { contextId: 'A' })));
    const b1 = asTask(await client.sendMessage(request('hello B', { contextId: 'B' })));
    const a2 = asTask(await client.sendMessage(request('again A', { contextId: 'A' })));
    expect([artifactText(a1), artifactText(b1), artifactText(a2)]).toEqual([
      'first in A',
      'first in B',
      'second in A',
    ]);
    const texts = (id: string) =>
      agents
        .get(id)
        ?.memory.messages()
        .filter((msg) => msg.role === 'user')
        .map((msg) =>
          msg.content.map((block) => (block.type === 'text' ? block.text : '')).join(''),
        );
    expect(texts('A')).toEqual(['hello A', 'again A']);
    expect(texts('B')).toEqual(['hello B']);
  });

  it("serves an AgentHost: each contextId is its own thread, saved to the host's session", async () => {
    const session = new InMemorySession();
    const host = new AgentHost({
      create: (threadId) => opsAgent([`first in ${threadId}`, `second in ${threadId}`], 'ops'),
      session,
    });
    const url = await serve(host);
    const client = await sdkClient(url);
    const a1 = asTask(await client.sendMessage(request('hello A', { contextId: 'A' })));
    const b1 = asTask(await client.sendMessage(request('hello B', { contextId: 'B' })));
    const a2 = asTask(await client.sendMessage(request('again A', { contextId: 'A' })));
    expect([artifactText(a1), artifactText(b1), artifactText(a2)]).toEqual([
      'first in A',
      'first in B',
      'second in A',
    ]);
    expect(await session.list()).toEqual(['A', 'B']);
    expect(JSON.stringify(await session.load('A'))).toContain('again A');
    expect(JSON.stringify(await session.load('B'))).not.toContain('hello A');
  });
});
