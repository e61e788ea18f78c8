import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemorySession, type Session } from '@rxagent/core';
import type { ReActAgent } from '@rxagent/react-agent';
import { SqliteSession, SqliteStore } from '@rxagent/sqlite';
import type { BenchConfig } from '../lib/config.js';
import { atMost, row, type SuiteResult } from '../lib/result.js';
import { pairRatios, summarize } from '../lib/stats.js';
import { chatTurns, longChatAgent } from '../scenario/longChat.js';

type Kind = 'none' | 'InMemorySession' | 'SqliteSession';
const KINDS: readonly Kind[] = ['none', 'InMemorySession', 'SqliteSession'];

/** The q-quantile of `values` (nearest rank). */
function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** µs per versioned save of a ~2 KB state, one after another, each at the version it read. */
async function saveTimes(session: SqliteSession, key: string, saves: number): Promise<number[]> {
  const state = {
    memory: {
      messages: Array.from({ length: 12 }, (_, i) => ({ id: `m${i}`, text: 'x'.repeat(150) })),
    },
  };
  let version = 0;
  const times: number[] = [];
  for (let i = 0; i < saves; i++) {
    const t0 = performance.now();
    await session.save(key, { ...state, i }, { expectedVersion: version });
    times.push((performance.now() - t0) * 1000);
    version++;
  }
  return times;
}

const WORDS =
  'agent memory vector search index tea coffee travel budget invoice refund order shipping policy review trial cost deploy solar wind battery grid storage user alice bob meeting plan report weekly monthly quota bonus contract'.split(
    ' ',
  );

/** A sentence of 12 words drawn by `seed`. */
function sentence(seed: number): string {
  const words: string[] = [];
  let x = seed * 2654435761;
  for (let i = 0; i < 12; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    words.push(WORDS[x % WORDS.length] as string);
  }
  return `${words.join(' ')} item${seed}`;
}

/**
 * Suite "sqlite" (opt-in, `--only=sqlite`): a versioned `SqliteSession.save` (file, WAL) p50
 * and p99; the cost of `durable` per turn of the long research chat (7 checkpoints a turn) on
 * SqliteSession against InMemorySession and none, in interleaved rounds; the file's size along
 * a 1,000-turn durable conversation (it must grow linearly); `SqliteStore.search` p50 over
 * 10,000 items.
 */
export async function sqlite(config: BenchConfig): Promise<SuiteResult> {
  const dir = mkdtempSync(join(tmpdir(), 'rxagent-bench-sqlite-'));
  const saves = config.quick ? 500 : 5000;
  const turns = config.quick ? 5 : 20;
  const rounds = config.quick ? 2 : 5;
  const longTurns = config.quick ? 100 : 1000;
  const items = config.quick ? 1000 : 10_000;
  let files = 0;
  const sessionOf = (kind: Kind): Session | undefined =>
    kind === 'none'
      ? undefined
      : kind === 'InMemorySession'
        ? new InMemorySession()
        : new SqliteSession({ path: join(dir, `s${files++}.db`) });
  try {
    const file = new SqliteSession({ path: join(dir, 'saves.db') });
    // A warm-up: statements prepared, pages cached.
    await saveTimes(file, 'warm-up', 200);
    const times = await saveTimes(file, 'bench', saves);
    await file.close();

    let key = 0;
    const agentOn = (session: Session | undefined): ReActAgent =>
      longChatAgent(session ? { durable: { session, key: `run-${key++}` } } : {});
    const perTurn = new Map<Kind, number[]>(KINDS.map((k) => [k, []]));
    for (let round = 0; round < rounds; round++) {
      for (const kind of KINDS) {
        const session = sessionOf(kind);
        const agent = agentOn(session);
        const t0 = performance.now();
        await chatTurns(agent, 0, turns);
        perTurn.get(kind)!.push((performance.now() - t0) / turns);
        if (session instanceof SqliteSession) await session.close();
      }
    }
    const sqliteOverInMemory = pairRatios(
      perTurn.get('SqliteSession')!,
      perTurn.get('InMemorySession')!,
    );
    const overhead = (kind: Kind) =>
      perTurn.get(kind)!.map((ms, i) => ms - perTurn.get('none')![i]!);
    const overheadRatio = pairRatios(overhead('SqliteSession'), overhead('InMemorySession'));

    // Stored size along a long conversation: the database's pages in use after each mark.
    const longPath = join(dir, 'long.db');
    const longSession = new SqliteSession({ path: longPath });
    const longAgent = agentOn(longSession);
    const marks = [longTurns / 4, longTurns / 2, longTurns];
    const sizes: number[] = [];
    for (let turn = 0; turn < longTurns; turn++) {
      await chatTurns(longAgent, turn, turn + 1);
      if (marks.includes(turn + 1)) sizes.push(await storedBytes(longSession));
    }
    await longSession.close();

    const store = new SqliteStore({ path: join(dir, 'store.db') });
    for (let i = 0; i < items; i++)
      await store.put(['users', `u${i % 50}`], `k${i}`, { fact: sentence(i), n: i });
    const searchTimes: number[] = [];
    for (let i = 0; i < 300; i++) {
      const query = `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]}`;
      const t0 = performance.now();
      await store.search(['users'], { query });
      searchTimes.push((performance.now() - t0) * 1000);
    }
    const scoped: number[] = [];
    for (let i = 0; i < 300; i++) {
      const t0 = performance.now();
      await store.search(['users', `u${i % 50}`], { query: WORDS[i % WORDS.length] as string });
      scoped.push((performance.now() - t0) * 1000);
    }
    await store.close();

    const p50 = quantile(times, 0.5);
    const bytesPerTurn = sizes.map((size, i) => size / (marks[i] as number));
    const rows = [
      row(`SqliteSession versioned save (file, WAL), p50 of ${saves}`, 'µs', [p50]),
      row(`SqliteSession versioned save (file, WAL), p99 of ${saves}`, 'µs', [
        quantile(times, 0.99),
      ]),
      ...KINDS.map((k) => row(`durable chat, ${k}: ms per turn`, 'ms', perTurn.get(k)!)),
      row('durable chat: SqliteSession ÷ InMemorySession, per turn', '×', sqliteOverInMemory),
      row(
        'durable chat: their costs over none, SqliteSession ÷ InMemorySession',
        '×',
        overheadRatio,
      ),
      ...marks.map((m, i) =>
        row(`${longTurns}-turn durable chat: database bytes after turn ${m}`, 'B', [
          sizes[i] as number,
        ]),
      ),
      ...marks.map((m, i) =>
        row(`… bytes per turn after turn ${m}`, 'B', [bytesPerTurn[i] as number]),
      ),
      row(`SqliteStore.search over ${items} items (all namespaces), p50`, 'µs', [
        quantile(searchTimes, 0.5),
      ]),
      row(`SqliteStore.search over ${items} items (all namespaces), p99`, 'µs', [
        quantile(searchTimes, 0.99),
      ]),
      row(`SqliteStore.search in one of 50 namespaces, p50`, 'µs', [quantile(scoped, 0.5)]),
    ];
    return {
      id: 'sqlite',
      title: `SQLite: ${saves} versioned saves; a ${turns}-turn durable chat, ${rounds} rounds; a ${longTurns}-turn chat's file; search over ${items} items`,
      rows,
      budgets: [
        atMost('SQLite: a versioned save (file, WAL) ≤ 50 µs p50', p50, 50, 'µs'),
        atMost(
          'SQLite: a durable turn ≤ 2 × the same turn on InMemorySession',
          summarize(sqliteOverInMemory).median,
          2,
          '×',
        ),
        atMost(
          `SQLite: bytes per turn flat along ${longTurns} turns (last ÷ first mark ≤ 1.25)`,
          (bytesPerTurn.at(-1) ?? 0) / (bytesPerTurn[0] ?? 1),
          1.25,
          '×',
        ),
      ],
      details: { saveTimes: summarize(times), sizes, marks, perTurn: Object.fromEntries(perTurn) },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The JSON bytes the session holds (its keys and states). */
async function storedBytes(session: SqliteSession): Promise<number> {
  let bytes = 0;
  for (const key of await session.list())
    bytes += key.length + JSON.stringify(await session.load(key)).length;
  return bytes;
}
