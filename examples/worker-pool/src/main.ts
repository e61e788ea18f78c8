import { randomUUID } from 'node:crypto';
import { type Msg, textOf } from '@rxagent/core';
import { chooseModel, type ExampleOptions, runMain } from '@rxagent/example-kit';
import { RemoteAgent } from '@rxagent/redis';
import { type RedisServer, startRedisServer } from '@rxagent/redis/testing';
import { QUESTION, THREAD, tripScript } from './tripAgent.js';
import { startWorker, threadSchema, type WorkerProcess } from './workerPool.js';

/** What a run produced, for tests and callers. */
export interface WorkerPoolResult {
  readonly mode: 'offline' | 'live';
  /** The two worker processes. */
  readonly workers: readonly number[];
  /** The worker killed while it ran the call's tool. */
  readonly killed: number;
  /** The call's one reply. */
  readonly reply: Msg;
  /** Where the workers kept the threads: `redis`, or the PostgreSQL schema (`DATABASE_URL`). */
  readonly threads: string;
}

/**
 * A front process and a pool of two workers: this process starts a private `redis-server`
 * (unless `REDIS_URL` is set) and two `AgentWorker` processes serving the queue, then calls
 * the travel desk through a `RemoteAgent`. When the worker running the call starts its tool,
 * this process SIGKILLs it; after `claimAfterMs` (2 s) the other worker claims the run and
 * finishes it, and the caller gets its one reply. With `DATABASE_URL` set, the workers keep
 * the threads in PostgreSQL (a `PostgresSession` in a schema of this run) instead of Redis.
 */
export async function main(options: ExampleOptions = {}): Promise<WorkerPoolResult> {
  const out = options.out ?? process.stdout;
  const env = options.env ?? process.env;
  out.write(`${chooseModel(tripScript, env).banner}\n`);
  const server: RedisServer | undefined = env['REDIS_URL'] ? undefined : await startRedisServer();
  const url = env['REDIS_URL'] ?? server?.url ?? '';
  out.write(env['REDIS_URL'] ? `redis: ${url}\n` : `redis: a private redis-server at ${url}\n`);
  const queue = `travel:${randomUUID().slice(0, 8)}`;
  const threads = env['DATABASE_URL'] ? threadSchema(queue) : 'redis';
  if (env['DATABASE_URL']) out.write(`threads: PostgreSQL (DATABASE_URL), schema ${threads}\n`);
  const workers: WorkerProcess[] = [];
  const agent = new RemoteAgent({
    url,
    queue,
    threadId: THREAD,
    name: 'travel-desk',
    timeoutMs: 60_000,
  });
  try {
    const childEnv = { ...env, REDIS_URL: url };
    workers.push(startWorker(url, queue, childEnv), startWorker(url, queue, childEnv));
    await Promise.all(workers.map((worker) => worker.waitFor('ready')));
    out.write(
      `workers: processes ${workers.map((w) => w.pid).join(' and ')}\n\nuser: ${QUESTION}\n`,
    );

    const reply = agent.reply(QUESTION);
    const running = await Promise.race(
      workers.map((worker) => worker.waitFor('tool started').then(() => worker)),
    );
    await running.kill('SIGKILL');
    out.write(`\n✗ worker ${running.pid} was killed while it ran check_availability\n`);
    out.write('  … the other worker claims the run after 2 s and finishes it\n');

    const final = await reply;
    out.write(`\ntravel-desk: ${textOf(final)}\n`);
    return {
      mode: chooseModel(tripScript, env).mode,
      workers: workers.map((w) => w.pid),
      killed: running.pid,
      reply: final,
      threads,
    };
  } finally {
    await agent.close();
    await Promise.all(workers.map((worker) => worker.kill('SIGTERM')));
    await server?.stop();
  }
}

runMain(import.meta.url, main);
