import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { AgentHost, InMemorySession, textOf } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { AgentWorker, RedisSession, RemoteAgent } from '@rxagent/redis';
import { startRedisServer } from '@rxagent/redis/testing';
import type { BenchConfig } from '../lib/config.js';
import { row, type SuiteResult } from '../lib/result.js';

const bench = fileURLToPath(new URL('../../', import.meta.url));
const peerScript = fileURLToPath(new URL('./workerPeer.ts', import.meta.url));

/** An agent answering `ok` at once. */
function quickAgent(): ReActAgent {
  return new ReActAgent({
    name: 'assistant',
    sysPrompt: 'Answer.',
    model: new ScriptedChatModel(
      Array.from({ length: 100_000 }, () => 'ok'),
      { strict: false },
    ),
  });
}

/** The p-th percentile (0–100) of `values`. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** A worker child process. */
interface Peer {
  readonly pid: number;
  waitFor(prefix: string): Promise<string>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

function startPeer(url: string, queue: string, slow = false): Peer {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      './src/build/register.mjs',
      peerScript,
      url,
      queue,
      ...(slow ? ['slow'] : []),
    ],
    { cwd: bench, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines: string[] = [];
  const waiters: Array<{ prefix: string; resolve: (line: string) => void }> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const w of waiters.filter((x) => line.startsWith(x.prefix))) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(line);
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid: child.pid ?? -1,
    waitFor: (prefix) => {
      const seen = lines.find((line) => line.startsWith(prefix));
      return seen !== undefined
        ? Promise.resolve(seen)
        : new Promise((resolve) => waiters.push({ prefix, resolve }));
    },
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** Wall ms of each of `count` short calls, one after another. */
async function latencies(count: number, call: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 20; i++) await call();
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await call();
    out.push(performance.now() - t0);
  }
  return out;
}

/** Calls per second through `workers` worker processes, `inFlight` calls at once on as many threads. */
async function throughput(
  url: string,
  workers: number,
  calls: number,
  inFlight: number,
): Promise<number> {
  const queue = `tp${workers}-${Date.now()}`;
  const peers = Array.from({ length: workers }, () => startPeer(url, queue));
  await Promise.all(peers.map((peer) => peer.waitFor('ready')));
  const agents = Array.from(
    { length: inFlight },
    (_, i) => new RemoteAgent({ url, queue, threadId: `t${i}`, name: 'assistant' }),
  );
  try {
    let next = 0;
    const lane = async (agent: RemoteAgent): Promise<void> => {
      while (next++ < calls) await agent.reply('hi');
    };
    await Promise.all(agents.slice(0, 8).map(lane)); // warm-up
    next = 0;
    const t0 = performance.now();
    await Promise.all(agents.map(lane));
    return calls / ((performance.now() - t0) / 1000);
  } finally {
    await Promise.all(agents.map((agent) => agent.close()));
    await Promise.all(peers.map((peer) => peer.kill('SIGTERM')));
  }
}

/** Ms from killing the worker running a call (in its tool) to the call's reply, via a claim. */
async function recoveryMs(url: string): Promise<number> {
  const queue = `recovery-${Date.now()}`;
  const peers = [startPeer(url, queue, true), startPeer(url, queue, true)];
  await Promise.all(peers.map((peer) => peer.waitFor('ready')));
  const agent = new RemoteAgent({ url, queue, threadId: 'r', name: 'assistant' });
  try {
    const reply = agent.reply('go');
    const running = await Promise.race(peers.map((peer) => peer.waitFor('tool').then(() => peer)));
    const t0 = performance.now();
    await running.kill('SIGKILL');
    const final = await reply;
    if (textOf(final) !== 'done') throw new Error(`the recovered call answered ${textOf(final)}`);
    return performance.now() - t0;
  } finally {
    await agent.close();
    await Promise.all(peers.map((peer) => peer.kill('SIGTERM')));
  }
}

/**
 * Suite (opt-in, needs redis-server): workers. The latency a RemoteAgent adds over a local
 * agent (p50, p99 of a short call, one in-process worker), calls per second through 1, 2 and
 * 4 worker processes, and the time from killing a worker mid-call to that call's reply
 * (another worker claims it after claimAfterMs = 2 s).
 */
export async function workers(config: BenchConfig): Promise<SuiteResult> {
  const server = await startRedisServer();
  try {
    const count = config.quick ? 100 : 1_000;
    const host = new AgentHost({ create: quickAgent, session: new InMemorySession() });
    const local = await latencies(count, () => host.reply('local', 'hi'));
    const session = new RedisSession({ url: server.url, prefix: 'lat:s:' });
    const remoteHost = new AgentHost({ create: quickAgent, session });
    const worker = new AgentWorker({ url: server.url, queue: 'lat', host: remoteHost });
    await worker.start();
    const agent = new RemoteAgent({
      url: server.url,
      queue: 'lat',
      threadId: 'remote',
      name: 'assistant',
    });
    const remote = await latencies(count, () => agent.reply('hi'));
    await agent.close();
    await worker.stop();
    await session.close();
    const calls = config.quick ? 200 : 2_000;
    const rates: Record<number, number> = {};
    for (const n of [1, 2, 4]) rates[n] = await throughput(server.url, n, calls, 64);
    const recovery = await recoveryMs(server.url);
    return {
      id: 'workers',
      title:
        'Workers: a RemoteAgent call against a local one, throughput by worker count, recovery after a kill',
      rows: [
        row('local AgentHost call, p50', 'ms', [percentile(local, 50)]),
        row('local AgentHost call, p99', 'ms', [percentile(local, 99)]),
        row('RemoteAgent call (one worker), p50', 'ms', [percentile(remote, 50)]),
        row('RemoteAgent call (one worker), p99', 'ms', [percentile(remote, 99)]),
        row('added by going remote, p50', 'ms', [percentile(remote, 50) - percentile(local, 50)]),
        ...[1, 2, 4].map((n) =>
          row(`throughput, ${n} worker process(es), 64 in flight`, 'calls/s', [rates[n] ?? 0]),
        ),
        row('recovery: kill of the running worker → reply (claimAfterMs 2000)', 'ms', [recovery]),
      ],
      budgets: [],
      details: { local, remote, rates, recovery },
    };
  } finally {
    await server.stop();
  }
}
