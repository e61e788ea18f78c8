import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCheckpoint, textOf } from '@rxagent/core';
import { RedisSession, RemoteAgent } from '@rxagent/redis';
import { type RedisServer, startRedisServer } from '@rxagent/redis/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runTs, type TsProcess } from '../../../scripts/testing/tsProcess.js';
import { describeRedis } from './describeRedis.js';

const workerProcess = fileURLToPath(new URL('./fixtures/workerProcess.ts', import.meta.url));

describeRedis('AgentWorker when a worker dies mid-run', () => {
  let server: RedisServer;
  let dir: string;
  beforeAll(async () => {
    server = await startRedisServer();
    dir = mkdtempSync(join(tmpdir(), 'rxagent-worker-crash-'));
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has another worker claim the run after claimAfterMs: the caller gets exactly one reply and the conversation stays valid', async () => {
    const queue = 'crash';
    const log = join(dir, 'tools.log');
    writeFileSync(log, '');
    const children: TsProcess[] = [];
    try {
      const doomed = runTs(workerProcess, [server.url, queue, log, 'kill-in-tool']);
      children.push(doomed);
      await doomed.waitFor('ready');
      const agent = new RemoteAgent({
        url: server.url,
        queue,
        threadId: 't1',
        name: 'assistant',
        timeoutMs: 30_000,
      });
      const replies: string[] = [];
      const reply = agent.reply('Record this.').then((msg) => {
        replies.push(textOf(msg));
        return msg;
      });
      // The doomed worker takes the run and dies inside the tool; then a healthy one starts.
      await new Promise<void>((resolve) => doomed.child.once('exit', () => resolve()));
      expect(doomed.child.signalCode).toBe('SIGKILL');
      const healthy = runTs(workerProcess, [server.url, queue, log, '']);
      children.push(healthy);
      await healthy.waitFor('ready');

      const final = await reply;
      await agent.close();
      expect(textOf(final)).toBe('All recorded.');
      expect(replies).toEqual(['All recorded.']);
      const pids = readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split(' ')[0]);
      expect(pids[0]).toBe(String(doomed.child.pid));
      expect(pids.at(-1)).toBe(String(healthy.child.pid));

      // The stored conversation is one the real API accepts: every tool call has its result.
      const session = new RedisSession({ url: server.url, prefix: `${queue}:s:` });
      const state = await session.load('t1');
      await session.close();
      expect(JSON.stringify(state)).toContain('All recorded.');
    } finally {
      await Promise.all(children.map((child) => child.kill('SIGKILL')));
    }
  }, 60_000);

  it('with durable agents, goes on from the checkpoint: the tool that was running is in doubt, never run twice', async () => {
    const queue = 'crash-durable';
    const log = join(dir, 'tools-durable.log');
    writeFileSync(log, '');
    const children: TsProcess[] = [];
    try {
      const doomed = runTs(workerProcess, [server.url, queue, log, 'kill-in-tool', 'durable']);
      children.push(doomed);
      await doomed.waitFor('ready');
      const agent = new RemoteAgent({
        url: server.url,
        queue,
        threadId: 't1',
        name: 'assistant',
        timeoutMs: 30_000,
      });
      const reply = agent.reply('Record this.');
      await new Promise<void>((resolve) => doomed.child.once('exit', () => resolve()));
      expect(doomed.child.signalCode).toBe('SIGKILL');
      const healthy = runTs(workerProcess, [server.url, queue, log, '', 'durable']);
      children.push(healthy);
      await healthy.waitFor('ready');

      const final = await reply;
      await agent.close();
      expect(textOf(final)).toBe('All recorded.');
      // The non-idempotent tool ran once, in the worker that died; the other did not run it again.
      const runs = readFileSync(log, 'utf8').trim().split('\n');
      expect(runs).toHaveLength(1);
      expect(runs[0]?.split(' ')[0]).toBe(String(doomed.child.pid));
      // The model was told the outcome is unknown (an in_doubt result), in a valid conversation.
      const session = new RedisSession({ url: server.url, prefix: `${queue}:s:` });
      const state = JSON.stringify((await loadCheckpoint(session, 't1'))?.state);
      await session.close();
      expect(state).toContain('in_doubt');
      expect(state).toContain('All recorded.');
    } finally {
      await Promise.all(children.map((child) => child.kill('SIGKILL')));
    }
  }, 60_000);
});
