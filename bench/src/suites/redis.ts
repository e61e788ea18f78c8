import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  AgentBase,
  assistantMsg,
  InMemoryMemory,
  JsonFileSession,
  type JsonObject,
  type Msg,
  MsgHub,
  textOf,
  userMsg,
} from '@rxagent/core';
import { RedisMsgHub, RedisSession } from '@rxagent/redis';
import { startRedisServer } from '@rxagent/redis/testing';
import { EMPTY, filter, firstValueFrom, lastValueFrom, type Observable, throwError } from 'rxjs';
import type { BenchConfig } from '../lib/config.js';
import { row, type SuiteResult } from '../lib/result.js';

const bench = fileURLToPath(new URL('../../', import.meta.url));
const peerScript = fileURLToPath(new URL('./redisPeer.ts', import.meta.url));

/** Now, in ms since the epoch with sub-millisecond precision: comparable across processes. */
const now = (): number => performance.timeOrigin + performance.now();

/** Sizes of the redis suite. */
interface Sizes {
  readonly rounds: number;
  readonly pings: number;
  readonly flood: number;
  readonly sessionOps: number;
}

/** An agent that records how long each observed message took since its `sentAt`. */
class Listener extends AgentBase {
  readonly latenciesMs: number[] = [];
  heard = 0;
  protected override doCall(): Observable<Msg> {
    return throwError(() => new Error('the listener only listens'));
  }
  protected override doObserve(msg: Msg): Observable<void> {
    this.heard++;
    const sentAt = msg.metadata['sentAt'];
    if (typeof sentAt === 'number') this.latenciesMs.push(now() - sentAt);
    return EMPTY;
  }
}

/**
 * Suite "redis" (only with `--only=redis`: it starts a redis-server and a second process):
 * RedisMsgHub delivery latency from one process to another (p50/p99, one way, ping-pong so
 * nothing queues) and messages per second when a sender floods the topic, against the
 * in-process MsgHub; then save and load per second of a 50-message agent state in a
 * RedisSession against a JsonFileSession.
 */
export async function redis(config: BenchConfig): Promise<SuiteResult> {
  const sizes: Sizes = config.quick
    ? { rounds: 2, pings: 100, flood: 1_000, sessionOps: 100 }
    : { rounds: 3, pings: 500, flood: 5_000, sessionOps: 500 };
  const server = await startRedisServer();
  try {
    const across: HubRound[] = [];
    const local: HubRound[] = [];
    const sessions: SessionRound[] = [];
    for (let round = 0; round < sizes.rounds; round++) {
      across.push(await acrossProcesses(server.url, `bench-${round}`, sizes));
      local.push(await inProcessHub(sizes));
      sessions.push(await sessionRates(server.url, sizes));
    }
    const of = <T>(rounds: T[], pick: (r: T) => number) => rounds.map(pick);
    return {
      id: 'redis',
      title: `@rxagent/redis: ${sizes.pings} ping-pongs and ${sizes.flood.toLocaleString('en-US')} flooded messages across two processes, ${sizes.sessionOps} session saves/loads of a 50-message state, ${sizes.rounds} rounds`,
      rows: [
        row(
          'RedisMsgHub, other process: delivery latency p50',
          'ms',
          of(across, (r) => r.p50),
        ),
        row(
          'RedisMsgHub, other process: delivery latency p99',
          'ms',
          of(across, (r) => r.p99),
        ),
        row(
          'RedisMsgHub, other process: messages per second',
          '/s',
          of(across, (r) => r.rate),
        ),
        row(
          'MsgHub, in process: delivery latency p50',
          'ms',
          of(local, (r) => r.p50),
        ),
        row(
          'MsgHub, in process: delivery latency p99',
          'ms',
          of(local, (r) => r.p99),
        ),
        row(
          'MsgHub, in process: messages per second',
          '/s',
          of(local, (r) => r.rate),
        ),
        row(
          'RedisSession: saves per second',
          '/s',
          of(sessions, (r) => r.redisSave),
        ),
        row(
          'RedisSession: loads per second',
          '/s',
          of(sessions, (r) => r.redisLoad),
        ),
        row(
          'JsonFileSession: saves per second',
          '/s',
          of(sessions, (r) => r.fileSave),
        ),
        row(
          'JsonFileSession: loads per second',
          '/s',
          of(sessions, (r) => r.fileLoad),
        ),
      ],
      budgets: [],
      details: { across, local, sessions, stateBytes: JSON.stringify(fiftyMessageState()).length },
    };
  } finally {
    await server.stop();
  }
}

interface HubRound {
  readonly p50: number;
  readonly p99: number;
  readonly rate: number;
}

async function acrossProcesses(url: string, topic: string, sizes: Sizes): Promise<HubRound> {
  const peer = startPeer(url, topic);
  const listener = new Listener({ name: 'bench' });
  const hub = new RedisMsgHub({ url, topic, participants: [listener], consumer: 'bench' });
  try {
    await lastValueFrom(hub.enter());
    await peer.line('ready');
    for (let i = 0; i < sizes.pings; i++) {
      const pong = firstValueFrom(
        hub.events.pipe(filter((e) => e.type === 'delivered' && textOf(e.msg) === `pong ${i}`)),
      );
      await lastValueFrom(hub.broadcast(userMsg(`ping ${i}`, { metadata: { sentAt: now() } })));
      await pong;
    }
    const started = now();
    const sends: Promise<void>[] = [];
    for (let i = 0; i < sizes.flood; i++)
      sends.push(lastValueFrom(hub.broadcast(userMsg(`m${i}`))));
    await Promise.all(sends);
    const reportLine = peer.nextLine();
    await lastValueFrom(hub.broadcast(userMsg('report')));
    const report = JSON.parse(await reportLine) as {
      latenciesMs: number[];
      lastAt: number;
      heard: number;
    };
    if (report.heard !== sizes.pings + sizes.flood + 1) {
      throw new Error(
        `the peer heard ${report.heard} messages, expected ${sizes.pings + sizes.flood + 1}`,
      );
    }
    const latencies = [...report.latenciesMs, ...listener.latenciesMs];
    return {
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      rate: (sizes.flood + 1) / ((report.lastAt - started) / 1000),
    };
  } finally {
    await hub.close();
    await peer.stop();
  }
}

async function inProcessHub(sizes: Sizes): Promise<HubRound> {
  const listener = new Listener({ name: 'listener' });
  const hub = new MsgHub({ participants: [listener] });
  await lastValueFrom(hub.enter());
  for (let i = 0; i < sizes.pings; i++) {
    await lastValueFrom(hub.broadcast(userMsg(`ping ${i}`, { metadata: { sentAt: now() } })));
  }
  const started = now();
  for (let i = 0; i < sizes.flood; i++) await lastValueFrom(hub.broadcast(userMsg(`m${i}`)));
  const seconds = (now() - started) / 1000;
  hub.exit();
  return {
    p50: percentile(listener.latenciesMs, 0.5),
    p99: percentile(listener.latenciesMs, 0.99),
    rate: sizes.flood / seconds,
  };
}

interface SessionRound {
  readonly redisSave: number;
  readonly redisLoad: number;
  readonly fileSave: number;
  readonly fileLoad: number;
}

async function sessionRates(url: string, sizes: Sizes): Promise<SessionRound> {
  const state = fiftyMessageState();
  const dir = mkdtempSync(join(tmpdir(), 'rxagent-bench-sessions-'));
  const redis = new RedisSession({ url, prefix: 'bench:' });
  const file = new JsonFileSession(dir);
  try {
    return {
      redisSave: await opsPerSecond(sizes.sessionOps, () => redis.save('agent', state)),
      redisLoad: await opsPerSecond(sizes.sessionOps, () => redis.load('agent')),
      fileSave: await opsPerSecond(sizes.sessionOps, () => file.save('agent', state)),
      fileLoad: await opsPerSecond(sizes.sessionOps, () => file.load('agent')),
    };
  } finally {
    await redis.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function opsPerSecond(count: number, op: () => Promise<unknown>): Promise<number> {
  await op();
  const started = performance.now();
  for (let i = 0; i < count; i++) await op();
  return count / ((performance.now() - started) / 1000);
}

/** The state dict of an agent whose memory holds 50 messages of a conversation (22 kB of JSON). */
function fiftyMessageState(): JsonObject {
  const memory = new InMemoryMemory();
  for (let i = 0; i < 25; i++) {
    memory.add(
      userMsg(`Question ${i}: ${'what about the venue, the budget and the agenda? '.repeat(4)}`),
    );
    memory.add(
      assistantMsg(
        `Answer ${i}: ${'the venue fits, the budget holds, the agenda is set. '.repeat(6)}`,
        { name: 'planner' },
      ),
    );
  }
  return { version: 1, memory: memory.stateDict() };
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

interface Peer {
  line(text: string): Promise<void>;
  nextLine(): Promise<string>;
  stop(): Promise<void>;
}

function startPeer(url: string, topic: string): Peer {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', './src/build/register.mjs', peerScript, url, topic],
    { cwd: bench, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = (match: (line: string) => boolean): Promise<string> =>
    new Promise((resolve, reject) => {
      const onLine = (line: string): void => {
        if (!match(line)) return;
        lines.off('line', onLine);
        resolve(line);
      };
      lines.on('line', onLine);
      void exited.then(() => reject(new Error('the redis bench peer exited early')));
    });
  return {
    line: async (text) => {
      await next((line) => line === text);
    },
    nextLine: () => next((line) => line.startsWith('{')),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
