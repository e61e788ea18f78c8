import { BenchModel } from '../contenders/benchModel.js';
import type { Contender } from '../contenders/contender.js';
import { fetchLoop } from '../contenders/fetchLoop.js';
import { handLoopInProcess, rxagentInProcess } from '../contenders/inProcess.js';
import { nodeHttpLoop } from '../contenders/nodeHttpLoop.js';
import { rxagentHttp } from '../contenders/rxagentHttp.js';
import { sdkLoop } from '../contenders/sdkLoop.js';
import type { BenchConfig } from '../lib/config.js';
import { interleave } from '../lib/interleave.js';
import { atMost, row, type SuiteResult } from '../lib/result.js';
import { delay, pairDifferences, pairRatios, settledHeap, summarize } from '../lib/stats.js';
import { PARK_PROMPT } from '../scenario/conversation.js';
import type { ServerProcess } from '../server/serverProcess.js';

/**
 * Parks `count` conversations at their last model call (the server answers 3 tool rounds,
 * then sends the response headers of the last call and nothing more) and returns the heap
 * they retain, per conversation, after a full GC. Then aborts them all.
 */
async function retainedPerAgent(
  parking: { reset(): Promise<void>; wait(count: number): Promise<void> },
  contender: Contender,
  count: number,
): Promise<number> {
  await parking.reset();
  const before = await settledHeap();
  const controllers = Array.from({ length: count }, () => new AbortController());
  const runs = controllers.map((controller) =>
    contender.run(PARK_PROMPT, controller.signal).then(
      () => {
        throw new Error(`${contender.label}: a parked conversation finished`);
      },
      () => undefined,
    ),
  );
  await parking.wait(count);
  // Let the last requests settle (sent, no answer yet) before measuring.
  await delay(200);
  const after = await settledHeap();
  for (const controller of controllers) controller.abort();
  await Promise.all(runs);
  return (after - before) / count;
}

/** Waits until `model` has parked `count` calls since the last reset. */
function inProcessParking(model: BenchModel) {
  return {
    async reset() {
      model.parked = 0;
    },
    async wait(count: number) {
      while (model.parked < count) await delay(5);
    },
  };
}

/**
 * Suite 4a: heap retained per conversation parked at its last model call (after 3 tool
 * rounds, so the whole history is held; the request is sent and unanswered), after a full
 * GC, for 1,000 conversations at once. Over HTTP (the transport's own state included), and
 * in process on a lean model that holds nothing (the framework's own state).
 */
export async function parkedAgents(
  server: ServerProcess,
  config: BenchConfig,
): Promise<SuiteResult> {
  const httpParking = {
    reset: () => server.resetParked(),
    wait: (n: number) => server.waitParked(n),
  };
  const model = new BenchModel();
  const local = inProcessParking(model);
  const series = [
    { label: 'rxagent', parking: httpParking, contender: rxagentHttp(server.baseURL) },
    { label: 'openai SDK loop', parking: httpParking, contender: sdkLoop(server.baseURL) },
    { label: 'fetch loop', parking: httpParking, contender: fetchLoop(server.baseURL) },
    {
      label: 'node:http loop',
      parking: httpParking,
      contender: nodeHttpLoop(server.baseURL),
    },
    { label: 'rxagent (in process)', parking: local, contender: rxagentInProcess(() => model) },
    {
      label: 'hand-written loop (in process)',
      parking: local,
      contender: handLoopInProcess(() => model),
    },
  ];
  const samples = await interleave(
    series.map(({ label, parking, contender }) => ({
      label,
      sample: async () => ({
        value: (await retainedPerAgent(parking, contender, config.parkedAgents)) / 1024,
      }),
    })),
    config.parkedRounds,
    1,
  );
  await server.assertNoRejections();
  const get = (label: string) => samples.get(label);
  const rx = get('rxagent');
  const sdk = get('openai SDK loop');
  return {
    id: 'parkedAgents',
    title: `Memory: ${config.parkedAgents.toLocaleString('en-US')} conversations parked at their last model call (heap after GC), ${config.parkedRounds} rounds`,
    rows: [
      ...series.map((s) =>
        row(`${s.label}: retained heap per parked conversation`, 'KB', get(s.label)),
      ),
      row('rxagent / openai SDK loop', '×', pairRatios(rx, sdk)),
      row('rxagent − openai SDK loop', 'KB', pairDifferences(rx, sdk)),
      row(
        'rxagent − hand-written loop (in process)',
        'KB',
        pairDifferences(get('rxagent (in process)'), get('hand-written loop (in process)')),
      ),
    ],
    budgets: [
      atMost(
        'Memory: ≤ 12 KB retained heap per parked agent (over HTTP)',
        summarize(rx).median,
        12,
        'KB',
      ),
    ],
    details: { samples: samples.toJSON() },
  };
}
