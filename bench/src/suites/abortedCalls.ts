import { type ChatModel, userMsg } from '@rxagent/core';
import { OpenAIChatModel, ReActAgent } from '@rxagent/react-agent';
import { filter, lastValueFrom, take, toArray } from 'rxjs';
import { BenchModel } from '../contenders/benchModel.js';
import type { BenchConfig } from '../lib/config.js';
import { type Footprint, footprint, grownResources } from '../lib/leakCheck.js';
import { atMost, type BudgetCheck, row, type SuiteResult } from '../lib/result.js';
import { pool } from '../lib/stats.js';
import { LONG_PROMPT, SYSTEM_PROMPT } from '../scenario/conversation.js';
import { benchToolkit } from '../scenario/tools.js';
import type { ServerProcess } from '../server/serverProcess.js';

/** Chunk events seen before the caller walks away from the call. */
const CUT_AFTER = 5;

/**
 * One call cut mid-stream: a fresh agent streams a long reply; the caller unsubscribes after
 * a few `reasoningChunk` events (take), which cancels the call and its model request.
 */
const toolkit = benchToolkit();

async function cutCall(model: () => ChatModel, shared: AbortSignal): Promise<void> {
  const agent = new ReActAgent({
    name: 'assistant',
    sysPrompt: SYSTEM_PROMPT,
    model: model(),
    toolkit,
  });
  const events = await lastValueFrom(
    agent.stream(userMsg(LONG_PROMPT), { signal: shared }).pipe(
      filter((event) => event.type === 'reasoningChunk'),
      take(CUT_AFTER),
      toArray(),
    ),
  );
  if (events.length !== CUT_AFTER)
    throw new Error(`the stream ended after ${events.length} chunk events`);
}

interface LeakResult {
  readonly before: Footprint;
  readonly after: Footprint;
  readonly heapGrowthPercent: number;
  readonly grown: Record<string, number>;
}

async function leakRun(
  model: () => ChatModel,
  calls: number,
  concurrency: number,
): Promise<LeakResult> {
  // A long-lived signal (an app's shutdown signal, say) given to every call: each call must
  // remove the listener it adds to it.
  const shared = new AbortController();
  // Warm-up: the first few thousand calls still grow the heap (JIT code, fetch's and the
  // SDK's lazily built state) by a few hundred bytes each, then it levels off.
  await pool(Math.max(500, Math.round(calls / 4)), concurrency, () =>
    cutCall(model, shared.signal),
  );
  const before = await footprint(shared.signal);
  await pool(calls, concurrency, () => cutCall(model, shared.signal));
  const after = await footprint(shared.signal, before);
  return {
    before,
    after,
    heapGrowthPercent: (100 * (after.heapBytes - before.heapBytes)) / before.heapBytes,
    grown: grownResources(before, after),
  };
}

function checks(where: string, result: LeakResult, calls: number): BudgetCheck[] {
  const handles = Object.values(result.grown).reduce((a, b) => a + b, 0);
  return [
    atMost(
      `${where}: heap within 2 % after ${calls.toLocaleString('en-US')} aborted calls`,
      result.heapGrowthPercent,
      2,
      '%',
    ),
    atMost(`${where}: no handle (timer, socket) left behind`, handles, 0, 'handles'),
    atMost(
      `${where}: no abort listener left on the caller's signal`,
      result.after.abortListeners,
      0,
      'listeners',
    ),
  ];
}

/**
 * Suite 4b: 10,000 calls cut mid-stream (the caller unsubscribes after 5 chunk events), over
 * HTTP and in process: heap after GC, live handles and abort listeners, before vs after.
 */
export async function abortedCalls(
  server: ServerProcess,
  config: BenchConfig,
): Promise<SuiteResult> {
  const calls = config.abortedCalls;
  const http = new OpenAIChatModel({
    model: 'bench-model',
    baseURL: server.baseURL,
    apiKey: 'bench-key',
  });
  const t0 = performance.now();
  const overHttp = await leakRun(() => http, calls, 8);
  const httpSeconds = (performance.now() - t0) / 1000;
  // Chunks arrive one macrotask apart, so the caller really leaves mid-stream.
  const local = new BenchModel();
  const t1 = performance.now();
  const inProcess = await leakRun(() => local, calls, 1);
  const inProcessSeconds = (performance.now() - t1) / 1000;
  await server.assertNoRejections();
  const mb = (bytes: number) => bytes / 1024 / 1024;
  return {
    id: 'abortedCalls',
    title: `Memory: ${calls.toLocaleString('en-US')} calls cut mid-stream (unsubscribed after ${CUT_AFTER} chunk events), before vs after`,
    rows: [
      row('HTTP: heap before', 'MB', [mb(overHttp.before.heapBytes)]),
      row('HTTP: heap after', 'MB', [mb(overHttp.after.heapBytes)]),
      row('HTTP: heap growth', '%', [overHttp.heapGrowthPercent]),
      row('HTTP: aborted calls per second', '/s', [calls / httpSeconds]),
      row('in process: heap before', 'MB', [mb(inProcess.before.heapBytes)]),
      row('in process: heap after', 'MB', [mb(inProcess.after.heapBytes)]),
      row('in process: heap growth', '%', [inProcess.heapGrowthPercent]),
      row('in process: aborted calls per second', '/s', [calls / inProcessSeconds]),
    ],
    budgets: [...checks('HTTP', overHttp, calls), ...checks('In process', inProcess, calls)],
    details: { http: overHttp, inProcess },
  };
}
