import { a2aHandler } from '@rxagent/a2a';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { afterEach, describe, expect, it } from 'vitest';
import { opsAgent } from './agents.js';
import { type Loopback, listen } from './loopback.js';

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const card = { name: 'echo', description: 'Answers.' };

interface RpcAnswer {
  result?: {
    task?: { id: string; status?: { state?: string } };
    id?: string;
    status?: { state?: string };
    totalSize?: number;
    tasks?: { id: string }[];
  };
  error?: { code: number; message: string };
}

async function rpc(url: string, method: string, params: unknown): Promise<RpcAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as RpcAnswer;
}

const message = (text: string, ids: { taskId?: string; contextId?: string } = {}) => ({
  message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }], ...ids },
});

/** An agent that answers `calls` calls at once with a short reply each. */
function echoAgent(calls = 1): ReActAgent {
  return new ReActAgent({
    name: 'echo',
    sysPrompt: 'You answer.',
    model: new ScriptedChatModel(Array.from({ length: calls }, () => 'done')),
  });
}

async function taskCount(url: string): Promise<number> {
  const listed = await rpc(url, 'ListTasks', { pageSize: 1 });
  expect(listed.error).toBeUndefined();
  return listed.result?.totalSize ?? -1;
}

describe('a2aHandler task store', () => {
  it('keeps at most maxTasks (default 1000) finished tasks over 1,500, dropping the oldest first', {
    timeout: 120_000,
  }, async () => {
    // A new context per message (none is given), each its own agent, few of them kept.
    server = await listen(a2aHandler(() => echoAgent(), { card, maxContexts: 10 }));
    const url = server.url;
    // Each message carries 20 KB of text: every one of them kept would be 30 MB.
    const padding = 'x'.repeat(20 * 1024);
    /** Sends `count` messages, 8 at a time; resolves with their task ids once all finished. */
    const wave = async (from: number, count: number): Promise<string[]> => {
      const ids: string[] = [];
      let next = from;
      const worker = async (): Promise<void> => {
        while (next < from + count) {
          const i = next++;
          const sent = await rpc(url, 'SendMessage', message(`${i} ${padding}`));
          expect(sent.result?.task?.status?.state, `task ${i}`).toBe('TASK_STATE_COMPLETED');
          ids[i - from] = sent.result?.task?.id ?? '';
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      return ids;
    };
    // The first 500 all finish before any of the last 1000 starts.
    const first = await wave(0, 500);
    const last = await wave(500, 1000);
    expect(await taskCount(url)).toBe(1000);
    // The 500 that finished first are gone: "task not found"; the last 1000 are all there.
    for (const id of [first[0], first[250], first[499]])
      expect((await rpc(url, 'GetTask', { id })).error?.code, id).toBe(-32001);
    for (const id of [last[0], last[500], last[999]])
      expect((await rpc(url, 'GetTask', { id })).result?.status?.state, id).toBe(
        'TASK_STATE_COMPLETED',
      );
  });

  it('counts tasks stopped for input as finished, and an evicted one answers task-not-found', async () => {
    const agent = opsAgent([
      { toolCalls: [{ id: 'call_rm', name: 'delete_file', arguments: { path: 'a.log' } }] },
      'one',
      'two',
      'three',
    ]);
    server = await listen(a2aHandler(agent, { card, maxTasks: 2 }));
    const url = server.url;
    const stopped = await rpc(url, 'SendMessage', message('Clean up', { contextId: 'c' }));
    expect(stopped.result?.task?.status?.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const stoppedId = stopped.result?.task?.id ?? '';
    await rpc(url, 'CancelTask', { id: stoppedId });
    for (const text of ['a', 'b']) await rpc(url, 'SendMessage', message(text, { contextId: 'c' }));
    expect(await taskCount(url)).toBe(2);
    const resumed = await rpc(url, 'SendMessage', {
      message: {
        messageId: 'm-resume',
        role: 'ROLE_USER',
        taskId: stoppedId,
        contextId: 'c',
        parts: [{ data: { approve: ['call_rm'] } }],
      },
    });
    expect(resumed.error?.code).toBe(-32001);
    expect((await rpc(url, 'GetTask', { id: stoppedId })).error?.code).toBe(-32001);
    expect(agent.deleted).toEqual([]);
  });

  it('never drops a running task, however many finish meanwhile', async () => {
    const slow = new ReActAgent({
      name: 'slow',
      sysPrompt: 'You answer.',
      model: new ScriptedChatModel([{ text: 'one two three four five six', chunkDelayMs: 500 }]),
    });
    const quick = echoAgent(3);
    server = await listen(
      a2aHandler((contextId) => (contextId === 'slow' ? slow : quick), { card, maxTasks: 1 }),
    );
    const url = server.url;
    const running = rpc(url, 'SendMessage', {
      ...message('take your time', { contextId: 'slow' }),
      configuration: { returnImmediately: true },
    });
    const started = await running;
    const runningId = started.result?.task?.id ?? '';
    expect(runningId).not.toBe('');
    for (const text of ['a', 'b', 'c'])
      await rpc(url, 'SendMessage', message(text, { contextId: 'quick' }));
    const got = await rpc(url, 'GetTask', { id: runningId });
    expect(got.result?.status?.state).toBe('TASK_STATE_WORKING');
    expect(await taskCount(url)).toBe(2);
    await rpc(url, 'CancelTask', { id: runningId });
  });
});
