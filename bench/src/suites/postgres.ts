import { InMemorySession, type JsonObject, type Session } from '@rxagent/core';
import { PostgresSession } from '@rxagent/postgres';
import { startPostgresServer } from '@rxagent/postgres/testing';
import pg from 'pg';
import type { BenchConfig } from '../lib/config.js';
import { atMost, row, type SuiteResult } from '../lib/result.js';
import { summarize } from '../lib/stats.js';
import { chatTurns, longChatAgent } from '../scenario/longChat.js';

/** The p-th percentile (0–100) of `values`, nearest rank. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** A 50-message conversation state of about 10 KB, like an agent's `stateDict()`. */
function stateOf(i: number): JsonObject {
  return {
    version: 1,
    step: i,
    memory: {
      messages: Array.from({ length: 50 }, (_, m) => ({
        role: m % 2 ? 'assistant' : 'user',
        content: `message ${m} of save ${i}: ${'words '.repeat(30)}`,
      })),
    },
  };
}

/**
 * Suite "postgres" (only with `--only=postgres`: it starts a PostgreSQL from Debian's
 * package, fsync off, on loopback): the latency of a versioned save (`expectedVersion`, a
 * 10 KB state) on a PostgresSession, p50 and p99, and the statements it sends (counted on the
 * pool: exactly one); the per-turn cost of `durable` on a PostgresSession against an
 * InMemorySession and none (in process, the long chat's turn: 7 checkpoints); the bytes a
 * 1,000-turn durable conversation stores in the table, at points along it.
 */
export async function postgres(config: BenchConfig): Promise<SuiteResult> {
  const saves = config.quick ? 300 : 2_000;
  const turns = config.quick ? 5 : 20;
  const rounds = config.quick ? 2 : 5;
  const longTurns = config.quick ? 100 : 1_000;
  const server = await startPostgresServer();
  const pool = new pg.Pool({ connectionString: server.connectionString, max: 4 });
  let queries = 0;
  const query = pool.query.bind(pool);
  pool.query = ((...args: Parameters<typeof query>) => {
    queries++;
    return query(...args);
  }) as typeof pool.query;
  try {
    const session = new PostgresSession({ pool, schema: 'bench_saves' });
    await session.save('warm', stateOf(0));
    const latencies: number[] = [];
    let version = 0;
    queries = 0;
    for (let i = 0; i < saves; i++) {
      const state = stateOf(i);
      const t0 = performance.now();
      version = await session.saveVersioned('conv', state, { expectedVersion: version });
      latencies.push(performance.now() - t0);
    }
    const perSave = queries / saves;

    const perTurn = new Map<string, number[]>([
      ['none', []],
      ['InMemorySession', []],
      ['PostgresSession', []],
    ]);
    let keys = 0;
    for (let round = 0; round < rounds; round++) {
      for (const kind of perTurn.keys()) {
        const store: Session | undefined =
          kind === 'none'
            ? undefined
            : kind === 'InMemorySession'
              ? new InMemorySession()
              : new PostgresSession({ pool, schema: 'bench_durable' });
        const agent = longChatAgent(
          store ? { durable: { session: store, key: `run-${keys++}` } } : {},
        );
        const t0 = performance.now();
        await chatTurns(agent, 0, turns);
        perTurn.get(kind)!.push((performance.now() - t0) / turns);
      }
    }

    const growth = await storedGrowth(pool, longTurns);
    const median = (kind: string) => summarize(perTurn.get(kind)!).median;
    const overPg = median('PostgresSession') - median('none');
    const overMem = median('InMemorySession') - median('none');
    return {
      id: 'postgres',
      title: `@rxagent/postgres on a loopback PostgreSQL (fsync off): ${saves} versioned saves of a 10 KB state; ${turns}-turn durable conversations, ${rounds} rounds; a ${longTurns}-turn durable conversation's stored bytes`,
      rows: [
        row('PostgresSession versioned save: p50', 'ms', [percentile(latencies, 50)]),
        row('PostgresSession versioned save: p99', 'ms', [percentile(latencies, 99)]),
        row('PostgresSession versioned save: statements per save', '×', [perSave]),
        ...[...perTurn].map(([kind, ms]) => row(`durable, ${kind}: ms per turn`, 'ms', ms)),
        row('durable on PostgresSession ÷ on InMemorySession: cost over none', '×', [
          overPg / Math.max(overMem, 1e-6),
        ]),
        ...growth.rows,
      ],
      budgets: [
        atMost('Postgres: statements (round trips) per versioned save', perSave, 1, '×'),
        atMost(
          `Postgres: stored bytes per turn flat along ${longTurns} turns (last ÷ middle half ≤ 1.25)`,
          growth.lateGrowth,
          1.25,
          '×',
        ),
      ],
      details: { latencies: summarize(latencies), perTurn: Object.fromEntries(perTurn), growth },
    };
  } finally {
    await pool.end();
    await server.stop();
  }
}

/** The bytes the `sessions` table holds for one durable conversation at points along it. */
async function storedGrowth(pool: pg.Pool, turns: number) {
  const session = new PostgresSession({ pool, schema: 'bench_growth' });
  const agent = longChatAgent({ durable: { session, key: 'long' } });
  const marks = [Math.round(turns / 4), Math.round(turns / 2), Math.round((3 * turns) / 4), turns];
  const stored: { turn: number; bytes: number; rows: number }[] = [];
  for (let turn = 0; turn < turns; turn++) {
    await chatTurns(agent, turn, turn + 1);
    if (!marks.includes(turn + 1)) continue;
    const { rows } = await pool.query<{ bytes: string; n: string }>(
      'SELECT sum(octet_length(state)) AS bytes, count(*) AS n FROM bench_growth.sessions',
    );
    stored.push({ turn: turn + 1, bytes: Number(rows[0]?.bytes), rows: Number(rows[0]?.n) });
  }
  const at = (i: number) => stored[i] as { turn: number; bytes: number; rows: number };
  // Linear growth: the second half adds as many bytes per turn as the quarter before it.
  const perTurn = (a: number, b: number) => (at(b).bytes - at(a).bytes) / (at(b).turn - at(a).turn);
  const lateGrowth = perTurn(1, 3) / perTurn(0, 1);
  return {
    lateGrowth,
    stored,
    rows: [
      ...stored.map((s) =>
        row(`turn ${s.turn} of ${turns}: bytes stored (${s.rows} rows)`, 'B', [s.bytes]),
      ),
      row('stored bytes per turn, second half ÷ second quarter', '×', [lateGrowth]),
    ],
  };
}
