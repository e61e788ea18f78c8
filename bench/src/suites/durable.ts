import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ChatRequest,
  InMemorySession,
  JsonFileSession,
  type JsonObject,
  type SaveOptions,
  type Session,
  type VersionedSession,
  type VersionedState,
} from '@rxagent/core';
import { startStrictOpenAIServer } from '@rxagent/core/testing';
import { OpenAIChatModel, type ReActAgent } from '@rxagent/react-agent';
import { RedisSession } from '@rxagent/redis';
import { startRedisServer } from '@rxagent/redis/testing';
import type { BenchConfig } from '../lib/config.js';
import { atMost, row, type SuiteResult } from '../lib/result.js';
import { pairDifferences, summarize } from '../lib/stats.js';
import { chatTurns, LongChatModel, longChatAgent } from '../scenario/longChat.js';

type Kind = 'none' | 'InMemorySession' | 'JsonFileSession' | 'RedisSession';
const KINDS: readonly Kind[] = ['none', 'InMemorySession', 'JsonFileSession', 'RedisSession'];

/** A session that counts what it is asked to save (compact JSON bytes) and how long saves take. */
class CountingSession implements VersionedSession {
  bytes = 0;
  saves = 0;
  saveMs = 0;
  constructor(readonly inner: VersionedSession) {}
  async save(key: string, state: JsonObject, options?: SaveOptions): Promise<void> {
    this.bytes += JSON.stringify(state).length;
    this.saves++;
    const t0 = performance.now();
    await this.inner.save(key, state, options);
    this.saveMs += performance.now() - t0;
  }
  loadVersioned(key: string): Promise<VersionedState | undefined> {
    return this.inner.loadVersioned(key);
  }
  load = (key: string) => this.inner.load(key);
  delete = (key: string) => this.inner.delete(key);
  list = () => this.inner.list();
}

interface World {
  readonly dir: string;
  readonly redisUrl: string;
  keys: number;
}

function sessionOf(kind: Kind, world: World): Session | undefined {
  if (kind === 'none') return undefined;
  if (kind === 'InMemorySession') return new InMemorySession();
  if (kind === 'JsonFileSession') return new JsonFileSession(world.dir);
  return new RedisSession({ url: world.redisUrl, prefix: 'bench:' });
}

function agentWith(
  model: LongChatModel | OpenAIChatModel,
  session: Session | undefined,
  world: World,
): ReActAgent {
  const durable = session && { session, key: `run-${world.keys++}` };
  return longChatAgent({ model, ...(durable && { durable }) });
}

async function chat(agent: ReActAgent, turns: number): Promise<number> {
  const t0 = performance.now();
  await chatTurns(agent, 0, turns);
  return (performance.now() - t0) / turns;
}

/** The strict server's side of the long chat: a read_source call, then an answer. */
function httpTurn(request: ChatRequest) {
  const last = request.messages[request.messages.length - 1];
  if (last?.role === 'tool') return { text: 'The review covers the source.' };
  return { toolCalls: [{ name: 'read_source', arguments: { id: 'doc-1' } }] };
}

/**
 * Suite "durable" (only with `--only=durable`: it starts a redis-server): the cost of the
 * `durable` option per conversation turn (a question, a tool call with a 5 KB result, an
 * answer: 7 checkpoints) with InMemorySession, JsonFileSession and RedisSession against
 * none, in process (a scripted model) and over loopback HTTP (the strict server through the
 * openai SDK); then the bytes each turn's saves write (heads and sealed segments), the time
 * of one save and of a turn along a 200-turn conversation.
 */
export async function durable(config: BenchConfig): Promise<SuiteResult> {
  const turns = config.quick ? 5 : 20;
  const rounds = config.quick ? 2 : 5;
  const longTurns = config.quick ? 40 : 200;
  const redis = await startRedisServer();
  const dir = mkdtempSync(join(tmpdir(), 'rxagent-bench-durable-'));
  const world: World = { dir, redisUrl: redis.url, keys: 0 };
  const server = await startStrictOpenAIServer({
    script: Array.from({ length: 4 * turns * rounds * KINDS.length + 10 }, () => httpTurn),
  });
  const closers: (() => Promise<void>)[] = [];
  try {
    const inProcess = new Map<Kind, number[]>(KINDS.map((k) => [k, []]));
    const http = new Map<Kind, number[]>(KINDS.map((k) => [k, []]));
    for (let round = 0; round < rounds; round++) {
      for (const kind of KINDS) {
        const session = sessionOf(kind, world);
        if (session instanceof RedisSession) closers.push(() => session.close());
        inProcess
          .get(kind)!
          .push(await chat(agentWith(new LongChatModel(), session, world), turns));
        const model = new OpenAIChatModel({
          model: 'bench',
          baseURL: server.baseURL,
          apiKey: 'bench',
        });
        http.get(kind)!.push(await chat(agentWith(model, session, world), turns));
      }
    }
    const growth = await longRun(world, longTurns);
    const cpu = await longRunTimes(world, longTurns, 'InMemorySession');
    const plain = await longRunTimes(world, longTurns, 'none');
    const rows = [
      ...KINDS.map((k) => row(`in process, ${k}: ms per turn`, 'ms', inProcess.get(k)!)),
      ...KINDS.map((k) => row(`loopback HTTP, ${k}: ms per turn`, 'ms', http.get(k)!)),
      ...growth.rows,
      ...cpu.rows,
      ...plain.rows,
    ];
    return {
      id: 'durable',
      title: `durable runs: ${turns}-turn conversations (7 checkpoints a turn), ${rounds} rounds; a ${longTurns}-turn conversation's checkpoint sizes (JsonFileSession)`,
      rows,
      budgets: [
        atMost(
          'Durable: InMemorySession costs ≤ 10 µs per turn over no durability (in process)',
          summarize(
            pairDifferences(inProcess.get('InMemorySession')!, inProcess.get('none')!).map(
              (ms) => ms * 1000,
            ),
          ).median,
          10,
          'µs',
        ),
        atMost(
          `Durable: checkpoint bytes per turn flat along ${longTurns} turns (turn ${longTurns} ÷ turn ${Math.round(longTurns / 2)} ≤ 1.25; whole-state checkpoints give 2)`,
          growth.details.lateGrowth,
          1.25,
          '×',
        ),
      ],
      details: { ...growth.details, inMemory: cpu.details, none: plain.details },
    };
  } finally {
    for (const close of closers) await close();
    await server.close();
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Bytes and checkpoint time per turn at points along one long durable conversation. */
async function longRun(world: World, turns: number) {
  const session = new CountingSession(new JsonFileSession(world.dir));
  const agent = agentWith(new LongChatModel(), session, world);
  const marks = [1, Math.round(turns / 2), turns];
  const perTurn: {
    turn: number;
    bytes: number;
    saves: number;
    msPerSave: number;
    msTurn: number;
  }[] = [];
  let total = 0;
  const turnMs: number[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const before = { bytes: session.bytes, saves: session.saves, ms: session.saveMs };
    const t0 = performance.now();
    await chatTurns(agent, turn, turn + 1);
    turnMs.push(performance.now() - t0);
    // The mean of the last ten turns (one turn's time moves a lot on a busy machine).
    const window = turnMs.slice(-10);
    const msTurn = window.reduce((a, b) => a + b, 0) / window.length;
    total += session.bytes - before.bytes;
    if (marks.includes(turn + 1)) {
      const saves = session.saves - before.saves;
      perTurn.push({
        turn: turn + 1,
        bytes: session.bytes - before.bytes,
        saves,
        msPerSave: (session.saveMs - before.ms) / saves,
        msTurn,
      });
    }
  }
  // The head file and the files of its sealed segments (`<key>~seg.…`, encoded).
  const key = `run-${world.keys - 1}`;
  const file = statSync(join(world.dir, `${key}.json`)).size;
  const segmentFiles = readdirSync(world.dir).filter((name) => name.startsWith(`${key}%7Eseg`));
  const segments = segmentFiles.reduce(
    (sum, name) => sum + statSync(join(world.dir, name)).size,
    0,
  );
  const rows = perTurn.flatMap((p) => [
    row(`turn ${p.turn} of ${turns}: bytes its ${p.saves} saves write`, 'B', [p.bytes]),
    row(`turn ${p.turn} of ${turns}: ms per JsonFileSession save`, 'ms', [p.msPerSave]),
    row(`turn ${p.turn} of ${turns}: ms per turn (mean of the last 10)`, 'ms', [p.msTurn]),
  ]);
  rows.push(row(`${turns} turns: bytes written in all`, 'B', [total]));
  rows.push(row(`${turns} turns: the head file at the end (pretty-printed)`, 'B', [file]));
  rows.push(
    row(`${turns} turns: its ${segmentFiles.length} segment files (pretty-printed)`, 'B', [
      segments,
    ]),
  );
  // Per-turn bytes that stay flat make the conversation's total linear in its turns.
  const lateGrowth = (perTurn.at(-1)?.bytes ?? 0) / (perTurn.at(-2)?.bytes ?? 1);
  rows.push(row(`bytes per turn, turn ${turns} ÷ turn ${marks[1]}`, '×', [lateGrowth]));
  return {
    rows,
    details: { perTurn, total, file, segments, segmentFiles: segmentFiles.length, lateGrowth },
  };
}

/** The time per turn along one long conversation: durable on an InMemorySession (no disk), or not. */
async function longRunTimes(world: World, turns: number, kind: 'InMemorySession' | 'none') {
  const agent = agentWith(new LongChatModel(), sessionOf(kind, world), world);
  const marks = [10, Math.round(turns / 2), turns];
  const turnMs: number[] = [];
  const perTurn: { turn: number; msTurn: number }[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const t0 = performance.now();
    await chatTurns(agent, turn, turn + 1);
    turnMs.push(performance.now() - t0);
    if (marks.includes(turn + 1)) {
      const window = turnMs.slice(-10);
      perTurn.push({ turn: turn + 1, msTurn: window.reduce((a, b) => a + b, 0) / window.length });
    }
  }
  const rows = perTurn.map((p) =>
    row(`turn ${p.turn} of ${turns}, ${kind}: ms per turn (mean of the last 10)`, 'ms', [p.msTurn]),
  );
  return { rows, details: perTurn };
}
