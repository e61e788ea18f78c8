import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryStore, type MemoryStore, Toolkit, tool } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { LongTermMemory } from '@rxagent/memory';
import { ReActAgent } from '@rxagent/react-agent';
import { SqliteStore } from '@rxagent/sqlite';
import { z } from 'zod';
import { runMemoryEval } from '../../../examples/memory-desk/src/memoryEval.js';
import type { BenchConfig } from '../lib/config.js';
import { atLeast, atMost, row, type SuiteResult } from '../lib/result.js';
import { summarize } from '../lib/stats.js';

const WORDS =
  'agent memory vector search index tea coffee travel budget invoice refund order shipping policy review trial cost deploy solar wind battery grid storage meeting plan report weekly monthly quota bonus contract'.split(
    ' ',
  );

/**
 * A fact of 10 words drawn by `seed`: 3 from a small common vocabulary (which the queries
 * use, so each query matches a few hundred facts of 10,000) and 7 from 5,000 rarer words.
 */
function fact(seed: number): string {
  const words: string[] = [];
  let x = seed * 2654435761;
  for (let i = 0; i < 10; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    words.push(i < 3 ? WORDS[x % WORDS.length]! : `w${x % 5000}`);
  }
  return `${words.join(' ')} fact${seed}`;
}

/** A store wrapper counting round trips (operations started while none was in flight). */
class RoundTrips implements MemoryStore {
  count = 0;
  #inFlight = 0;
  constructor(readonly inner: MemoryStore) {}
  #track<T>(run: () => Promise<T>): Promise<T> {
    if (this.#inFlight++ === 0) this.count++;
    return run().finally(() => {
      this.#inFlight--;
    });
  }
  put: MemoryStore['put'] = (...a) => this.#track(() => this.inner.put(...a));
  get: MemoryStore['get'] = (...a) => this.#track(() => this.inner.get(...a));
  search: MemoryStore['search'] = (...a) => this.#track(() => this.inner.search(...a));
  delete: MemoryStore['delete'] = (...a) => this.#track(() => this.inner.delete(...a));
  list: MemoryStore['list'] = (...a) => this.#track(() => this.inner.list(...a));
}

const schema = z.object({ name: z.string(), plan: z.string() }).partial();
const byUser = (ctx: Record<string, unknown> | undefined) => ['users', String(ctx?.['userId'])];

/** A store holding `items` facts: all in user u0's namespace, or spread over 50 users. */
async function filled(store: MemoryStore, items: number, spread: boolean): Promise<LongTermMemory> {
  const memory = new LongTermMemory({
    store,
    namespace: byUser as never,
    workingMemory: { schema },
  });
  for (let i = 0; i < items; i++) {
    await memory.save({ userId: spread ? `u${i % 50}` : 'u0' }, fact(i));
  }
  await memory.updateWorkingMemory({ userId: 'u0' }, { name: 'Ada', plan: 'gold' });
  return memory;
}

/** CPU µs (user + system) per call of a one-request agent, with or without `memory`. */
async function cpuPerCall(memory: LongTermMemory | undefined, calls: number): Promise<number> {
  const model = new ScriptedChatModel(
    Array.from({ length: calls }, () => 'ok'),
    { strict: false },
  );
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) {
    const agent = new ReActAgent({
      name: 'a',
      sysPrompt: 'Help.',
      model,
      ...(memory && { longTermMemory: memory, longTermMemoryMode: 'static' as const }),
    });
    await agent.reply(
      `what about ${WORDS[i % WORDS.length]} and ${WORDS[(i * 7) % WORDS.length]}`,
      {
        callContext: { userId: 'u0' },
      },
    );
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / calls;
}

/**
 * Suite "memory" (opt-in, `--only=memory`): the CPU static recall adds to a call (one
 * request, scripted model) with InMemoryStore and SqliteStore holding 10,000 facts (in the
 * caller's namespace, and spread over 50 users), in interleaved rounds against the same
 * agent without memory; the store round trips of a three-request call (before the first
 * request, and between steps); the recall accuracy of the memory-desk dataset on SQLite.
 */
export async function memory(config: BenchConfig): Promise<SuiteResult> {
  const dir = mkdtempSync(join(tmpdir(), 'rxagent-bench-memory-'));
  const items = config.quick ? 2000 : 10_000;
  const calls = config.quick ? 100 : 200;
  const rounds = config.quick ? 2 : 3;
  try {
    const setups: [string, LongTermMemory][] = [
      ['InMemoryStore, one namespace', await filled(new InMemoryStore(), items, false)],
      ['InMemoryStore, 50 namespaces', await filled(new InMemoryStore(), items, true)],
      [
        'SqliteStore, one namespace',
        await filled(new SqliteStore({ path: join(dir, 'a.db') }), items, false),
      ],
      [
        'SqliteStore, 50 namespaces',
        await filled(new SqliteStore({ path: join(dir, 'b.db') }), items, true),
      ],
    ];
    await cpuPerCall(undefined, calls); // warm-up
    for (const [, m] of setups) await cpuPerCall(m, 50);
    const added = new Map<string, number[]>(setups.map(([name]) => [name, []]));
    const base: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const without = await cpuPerCall(undefined, calls);
      base.push(without);
      for (const [name, m] of setups) added.get(name)!.push((await cpuPerCall(m, calls)) - without);
    }

    // Round trips of a three-request call: a tool twice, then the answer.
    const counting = new RoundTrips(new InMemoryStore());
    const countingMemory = await filled(counting, 100, false);
    const clock = tool({
      name: 'clock',
      description: 'Time.',
      parameters: z.object({}),
      execute: () => 'noon',
    });
    let beforeFirst = -1;
    const agent = new ReActAgent({
      name: 'a',
      sysPrompt: 'Help.',
      model: new ScriptedChatModel([
        { toolCalls: [{ name: 'clock', arguments: {} }] },
        { toolCalls: [{ name: 'clock', arguments: {} }] },
        'ok',
      ]),
      toolkit: new Toolkit([clock]),
      longTermMemory: countingMemory,
      longTermMemoryMode: 'static',
      hooks: [
        {
          events: ['preReasoning'],
          onEvent: () => {
            if (beforeFirst === -1) beforeFirst = counting.count;
          },
        },
      ],
    });
    counting.count = 0;
    await agent.reply('what time is it for the meeting', { callContext: { userId: 'u0' } });
    const between = counting.count - beforeFirst;

    const evalStore = new SqliteStore({ path: join(dir, 'eval.db') });
    const report = await runMemoryEval(evalStore);
    evalStore.close();
    for (const [, m] of setups) if (m.store instanceof SqliteStore) m.store.close();

    const medians = setups.map(([name]) => summarize(added.get(name)!).median);
    const worst = Math.max(...medians);
    return {
      id: 'memory',
      title: `Long-term memory: static recall over ${items} facts, ${calls} calls × ${rounds} rounds; round trips; recall accuracy`,
      rows: [
        row('one-request call without memory: CPU per call', 'µs', base),
        ...setups.map(([name]) =>
          row(`static recall, ${name}: CPU added per call`, 'µs', added.get(name)!),
        ),
        row('store round trips before the first request', 'n', [beforeFirst]),
        row('store round trips between steps (3-request call)', 'n', [between]),
        row(`memory-desk recall accuracy (${report.cases.length} questions, SQLite)`, '%', [
          report.passRate * 100,
        ]),
      ],
      budgets: [
        atMost(
          `memory: static recall CPU per call at ${items} facts ≤ 500 µs (worst store)`,
          worst,
          500,
          'µs',
        ),
        atMost('memory: store round trips before the first request ≤ 1', beforeFirst, 1, 'n'),
        atMost('memory: store round trips between steps = 0', between, 0, 'n'),
        atLeast('memory: memory-desk recall accuracy ≥ 90 %', report.passRate * 100, 90, '%'),
      ],
      details: {
        added: Object.fromEntries(added),
        base,
        beforeFirst,
        between,
        accuracy: report.passRate,
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
