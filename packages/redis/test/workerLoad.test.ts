import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCheckpoint } from '@rxagent/core';
import { RedisSession } from '@rxagent/redis';
import { type RedisServer, startRedisServer } from '@rxagent/redis/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runTs, type TsProcess } from '../../../scripts/testing/tsProcess.js';
import { describeRedis } from './describeRedis.js';

const loadWorker = fileURLToPath(new URL('./fixtures/loadWorker.ts', import.meta.url));
const loadClient = fileURLToPath(new URL('./fixtures/loadClient.ts', import.meta.url));

interface ClientResult {
  replies: number;
  mismatched: string[];
  errors: string[];
}

/** The `result` line of a client process. */
function resultOf(client: TsProcess): Promise<ClientResult> {
  return new Promise((resolve, reject) => {
    let out = '';
    client.child.stdout?.on('data', (data: Buffer) => {
      out += data.toString();
      const line = out.split('\n').find((l) => l.startsWith('result '));
      if (line) resolve(JSON.parse(line.slice('result '.length)) as ClientResult);
    });
    client.child.once('exit', () =>
      setTimeout(
        () => reject(new Error(`client exited without a result:\n${out.slice(-500)}`)),
        100,
      ),
    );
  });
}

describeRedis('AgentWorker under load', () => {
  let server: RedisServer;
  let dir: string;
  beforeAll(async () => {
    server = await startRedisServer();
    dir = mkdtempSync(join(tmpdir(), 'rxagent-worker-load-'));
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 200 of 200 calls over 50 threads from two clients while one of three workers is SIGKILLed, keeping every thread in order', async () => {
    const queue = 'load';
    const log = join(dir, 'tools.log');
    writeFileSync(log, '');
    const children: TsProcess[] = [];
    try {
      const workers = [0, 1, 2].map(() => runTs(loadWorker, [server.url, queue, log]));
      children.push(...workers);
      await Promise.all(workers.map((worker) => worker.waitFor('ready')));
      const clients = ['a', 'b'].map((prefix) =>
        // Each Redis command (connecting included) within 5 s: 25 clients connect at once on
        // a machine that may be very busy, and this test is about a worker's death, not Redis.
        runTs(loadClient, [server.url, queue, prefix, '25', '4', '5000']),
      );
      children.push(...clients);
      const results = clients.map(resultOf);
      await clients[0]?.waitFor('progress 30');
      await workers[0]?.kill('SIGKILL');

      const [a, b] = await Promise.all(results);
      for (const result of [a, b]) {
        expect(result?.errors).toEqual([]);
        expect(result?.mismatched).toEqual([]);
        expect(result?.replies).toBe(100);
      }

      // Every thread holds its four calls once each, in order, each answered.
      const session = new RedisSession({ url: server.url, prefix: `${queue}:s:` });
      try {
        for (const prefix of ['a', 'b']) {
          for (let t = 0; t < 25; t++) {
            // The conversation in memory (of a durable agent's checkpoint: its state's memory,
            // its sealed segments joined again; of a plain save: the state itself).
            const saved = await loadCheckpoint(session, `${prefix}-${t}`);
            const text = JSON.stringify(saved?.state['memory']);
            const at = [0, 1, 2, 3].map((n) => text.indexOf(`"text":"${prefix}-${t}-${n}"`));
            expect(
              at.every((i) => i >= 0),
              `${prefix}-${t}: ${text.slice(0, 300)}`,
            ).toBe(true);
            expect([...at].sort((x, y) => x - y)).toEqual(at);
            for (let n = 0; n < 4; n++) {
              expect(text.split(`"text":"done: ${prefix}-${t}-${n}"`).length - 1).toBe(1);
            }
          }
        }
      } finally {
        await session.close();
      }
      // Each tool call ran at most once, the killed worker's in-flight ones included.
      const runs = readFileSync(log, 'utf8').trim().split('\n');
      const ids = runs.map((line) => line.split(' ')[1]);
      expect(new Set(ids).size).toBe(ids.length);
      expect(runs.length).toBeGreaterThanOrEqual(190);
    } finally {
      await Promise.all(children.map((child) => child.kill('SIGKILL')));
    }
  }, 180_000);
});

describeRedis('AgentWorker when Redis restarts mid-load', () => {
  let server: RedisServer;
  let dir: string;
  beforeAll(async () => {
    server = await startRedisServer({ appendOnly: true });
    dir = mkdtempSync(join(tmpdir(), 'rxagent-worker-restart-'));
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ends every call, with its reply or a clear error, and nothing hangs', async () => {
    const queue = 'restart';
    const log = join(dir, 'tools.log');
    writeFileSync(log, '');
    const children: TsProcess[] = [];
    try {
      const workers = [0, 1].map(() => runTs(loadWorker, [server.url, queue, log]));
      children.push(...workers);
      await Promise.all(workers.map((worker) => worker.waitFor('ready')));
      const client = runTs(loadClient, [server.url, queue, 'r', '10', '4']);
      children.push(client);
      const result = resultOf(client);
      await client.waitFor('progress 10');
      await server.kill();
      await new Promise((resolve) => setTimeout(resolve, 500));
      await server.restart();

      const { replies, errors, mismatched } = await result;
      expect(replies).toBe(40);
      expect(mismatched).toEqual([]);
      // A call that could not finish names why: Redis was unreachable or the run went silent.
      for (const error of errors) {
        expect(error).toMatch(/StoreUnavailableError|RemoteRunTimeoutError/);
      }
    } finally {
      await Promise.all(children.map((child) => child.kill('SIGKILL')));
    }
  }, 180_000);
});
