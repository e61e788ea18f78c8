import { createNodeFetch } from '@rxagent/react-agent';
import type { Contender } from '../contenders/contender.js';
import { fetchLoop } from '../contenders/fetchLoop.js';
import { nodeHttpLoop } from '../contenders/nodeHttpLoop.js';
import { rxagentHttp } from '../contenders/rxagentHttp.js';
import { sdkLoop } from '../contenders/sdkLoop.js';
import type { BenchConfig } from '../lib/config.js';
import { interleave } from '../lib/interleave.js';
import { atMost, row, type SuiteResult } from '../lib/result.js';
import { pairRatios, summarize } from '../lib/stats.js';
import { timeConversations } from '../lib/timeConversations.js';
import { CALLS_PER_RUN } from '../scenario/conversation.js';
import type { ServerProcess } from '../server/serverProcess.js';

const RX_ON_FETCH = "rxagent on Node's fetch";
const SDK_ON_NODE = 'openai SDK loop on createNodeFetch';
const NODE_LOOP = 'node:http loop';

/**
 * Suite 1: M conversations one after another over HTTP, per contender, interleaved. Reports
 * wall-clock µs per model call, the client's CPU µs per model call (the server runs in its
 * own process) and rxagent's ratio to each baseline, round by round. rxagent runs as users
 * get it, on `OpenAIChatModel`'s default transport (`createNodeFetch`, through the SDK's
 * `fetch` option); two more rows cross the transports (rxagent on Node's built-in `fetch`,
 * the SDK loop on `createNodeFetch`), so the framework's own share shows apart from the
 * transport's.
 */
export async function httpSequential(
  server: ServerProcess,
  config: BenchConfig,
): Promise<SuiteResult> {
  const contenders: Contender[] = [
    rxagentHttp(server.baseURL),
    sdkLoop(server.baseURL),
    fetchLoop(server.baseURL),
    nodeHttpLoop(server.baseURL, NODE_LOOP),
    rxagentHttp(server.baseURL, RX_ON_FETCH, globalThis.fetch),
    sdkLoop(server.baseURL, SDK_ON_NODE, createNodeFetch()),
  ];
  const samples = await interleave(
    contenders.map((contender) => ({
      label: contender.label,
      sample: () => timeConversations(contender, config.httpRuns),
    })),
    config.httpRounds,
    config.httpWarmupRounds,
  );
  await server.assertNoRejections();
  const get = (label: string) => samples.get(label, 'wall');
  const cpu = (label: string) => samples.get(label, 'cpu');
  const rx = get('rxagent');
  const sdk = get('openai SDK loop');
  const sdkRatio = pairRatios(rx, sdk);
  const fetchRatio = pairRatios(rx, get('fetch loop'));
  const nodeRatio = pairRatios(rx, get(NODE_LOOP));
  return {
    id: 'httpSequential',
    title: `HTTP sequential: ${config.httpRuns} conversations × ${CALLS_PER_RUN} model calls per sample, ${config.httpRounds} rounds after ${config.httpWarmupRounds} warm-up rounds`,
    rows: [
      ...contenders.map((c) => row(`${c.label}: wall per model call`, 'µs', get(c.label))),
      ...contenders.map((c) => row(`${c.label}: client CPU per model call`, 'µs', cpu(c.label))),
      row('rxagent / openai SDK loop (wall)', '×', sdkRatio),
      row('rxagent / fetch loop (wall)', '×', fetchRatio),
      row(`rxagent / ${NODE_LOOP} (wall)`, '×', nodeRatio),
      row(`rxagent / ${NODE_LOOP} (client CPU)`, '×', pairRatios(cpu('rxagent'), cpu(NODE_LOOP))),
      row(
        'rxagent / openai SDK loop (client CPU)',
        '×',
        pairRatios(cpu('rxagent'), cpu('openai SDK loop')),
      ),
      row(`${RX_ON_FETCH} / openai SDK loop (wall)`, '×', pairRatios(get(RX_ON_FETCH), sdk)),
      row(`rxagent / ${SDK_ON_NODE} (wall)`, '×', pairRatios(rx, get(SDK_ON_NODE))),
    ],
    budgets: [
      atMost(
        'HTTP sequential, streaming: rxagent ≤ 1.5 × the hand-written node:http loop per model call',
        summarize(nodeRatio).median,
        1.5,
        '×',
      ),
      atMost(
        'HTTP sequential: rxagent ≤ 1.0 × the hand-written fetch loop per model call',
        summarize(fetchRatio).median,
        1.0,
        '×',
      ),
      atMost(
        "HTTP sequential: rxagent ≤ 0.8 × the openai SDK loop (Node's fetch) per model call",
        summarize(sdkRatio).median,
        0.8,
        '×',
      ),
    ],
    details: { samples: samples.toJSON() },
  };
}
