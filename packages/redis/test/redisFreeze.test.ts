import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { textOf } from '@rxagent/core';
import { RemoteAgent } from '@rxagent/redis';
import { type RedisServer, startRedisServer } from '@rxagent/redis/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runTs, type TsProcess } from '../../../scripts/testing/tsProcess.js';
import { describeRedis } from './describeRedis.js';

const workerProcess = fileURLToPath(new URL('./fixtures/workerProcess.ts', import.meta.url));
/** The workers' claimAfterMs (fixed in the fixture) and their default commandTimeoutMs. */
const CLAIM_AFTER_MS = 1_500;
const COMMAND_TIMEOUT_MS = 2_000;

/** The lines of a log file (none while it does not exist). */
function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : [];
}

/** Resolves once `condition()` holds, checked every 20 ms; rejects after `ms`. */
async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** How long `child` took to exit after SIGTERM, in ms; `Infinity` when not within `ms`. */
async function stopTime(child: TsProcess, ms: number): Promise<number> {
  const started = performance.now();
  const exited = new Promise<number>((resolve) =>
    child.child.once('exit', () => resolve(performance.now() - started)),
  );
  child.child.kill('SIGTERM');
  return Promise.race([exited, sleep(ms).then(() => Number.POSITIVE_INFINITY)]);
}

describeRedis('AgentWorker when Redis stalls longer than claimAfterMs', () => {
  let server: RedisServer;
  let dir: string;
  beforeAll(async () => {
    server = await startRedisServer();
    dir = mkdtempSync(join(tmpdir(), 'rxagent-freeze-'));
  });
  afterAll(async () => {
    // A stopped server cannot be stopped politely: wake it first.
    if (server) process.kill(server.pid, 'SIGCONT');
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  // Two worker processes start through tsx on a busy machine: a generous limit.
  it('gives up the run it lost, the claimer finishes it, later calls are served, and stop() stays bounded', {
    timeout: 120_000,
  }, async () => {
    const queue = 'freeze';
    const log = join(dir, 'tools.log');
    writeFileSync(log, '');
    const workers: TsProcess[] = [];
    const agent = new RemoteAgent({
      url: server.url,
      queue,
      threadId: 't1',
      name: 'assistant',
      timeoutMs: 30_000,
    });
    try {
      for (let i = 0; i < 2; i++) {
        workers.push(runTs(workerProcess, [server.url, queue, log, 'slow-tool', 'durable']));
      }
      await Promise.all(workers.map((worker) => worker.waitFor('ready')));

      // Redis stalls (SIGSTOP) while the tool runs, for longer than claimAfterMs.
      const reply = agent.reply('Record this.');
      await until(() => lines(log).length === 1, 30_000, 'the tool to start');
      process.kill(server.pid, 'SIGSTOP');
      await sleep(CLAIM_AFTER_MS + 2_500);
      process.kill(server.pid, 'SIGCONT');

      const final = await reply;
      expect(textOf(final)).toBe('All recorded.');
      // The tool (not idempotent) started once: the claimer did not run it again.
      expect(lines(log).filter((line) => !line.endsWith(' done'))).toHaveLength(1);
      // The worker that lost the run started no further step of it: no model request ever
      // saw the result its tool produced after it had given the run up.
      expect(lines(`${log}.model`).filter((line) => line.includes('recorded x'))).toEqual([]);

      // Later calls on the thread are served.
      const again = await agent.reply('And this.');
      expect(textOf(again)).toBe('All recorded.');

      // stop() is bounded while Redis stalls: the worker running a call gives it up when its
      // hold runs out, then closes its connections within the command timeout.
      const before = lines(log).length;
      const third = agent.reply('Once more.').catch(() => undefined);
      await until(() => lines(log).length > before, 30_000, 'the third tool to start');
      const holder = workers.find((worker) =>
        lines(log).at(-1)?.startsWith(`${worker.child.pid} `),
      );
      expect(holder).toBeDefined();
      process.kill(server.pid, 'SIGSTOP');
      const took = await stopTime(holder!, 15_000);
      process.kill(server.pid, 'SIGCONT');
      // claimAfterMs + commandTimeoutMs, plus process exit and a busy machine's slack.
      expect(took).toBeLessThan(CLAIM_AFTER_MS + COMMAND_TIMEOUT_MS + 4_000);
      // The other worker takes the run over and finishes it.
      expect(textOf((await third)!)).toBe('All recorded.');
    } finally {
      process.kill(server.pid, 'SIGCONT');
      await Promise.all(workers.map((worker) => worker.kill('SIGKILL')));
      await agent.close();
    }
  });
});
