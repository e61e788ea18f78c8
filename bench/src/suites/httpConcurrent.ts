import type { Contender } from '../contenders/contender.js';
import { fetchLoop } from '../contenders/fetchLoop.js';
import { nodeHttpLoop } from '../contenders/nodeHttpLoop.js';
import { rxagentHttp } from '../contenders/rxagentHttp.js';
import { sdkLoop } from '../contenders/sdkLoop.js';
import type { BenchConfig } from '../lib/config.js';
import { interleave } from '../lib/interleave.js';
import { atLeast, type BudgetCheck, row, type SuiteResult } from '../lib/result.js';
import { pairRatios, pool, summarize } from '../lib/stats.js';
import { CALLS_PER_RUN, FINAL_ANSWER, USER_PROMPT } from '../scenario/conversation.js';
import type { ServerProcess } from '../server/serverProcess.js';

const NODE_LOOP = 'node:http loop';

/**
 * Suite 2: C conversations in flight at once (one agent each); conversations per second, at
 * two levels of concurrency (`config.concurrency`, then `config.highConcurrency`).
 */
export async function httpConcurrent(
  server: ServerProcess,
  config: BenchConfig,
): Promise<SuiteResult> {
  const contenders: Contender[] = [
    rxagentHttp(server.baseURL),
    sdkLoop(server.baseURL),
    fetchLoop(server.baseURL),
    nodeHttpLoop(server.baseURL, NODE_LOOP),
  ];
  // At the high level only rxagent and the node:http loop run: the SDK and fetch loops (on
  // undici, with no idle limit below the server's 5 s keep-alive) reuse sockets the server
  // is closing when 128 conversations starve a 2-core machine, and fail.
  const levels = [
    { inFlight: config.concurrency, runs: config.concurrentRuns, contenders },
    {
      inFlight: config.highConcurrency,
      runs: config.highConcurrentRuns,
      contenders: contenders.filter((c) => c.label === 'rxagent' || c.label === NODE_LOOP),
    },
  ];
  const rows = [];
  const budgets: BudgetCheck[] = [];
  const details: Record<string, unknown> = {};
  for (const [level, { inFlight, runs, contenders: series }] of levels.entries()) {
    const samples = await interleave(
      series.map((contender) => ({
        label: contender.label,
        sample: async () => {
          const t0 = performance.now();
          await pool(runs, inFlight, async () => {
            const answer = await contender.run(USER_PROMPT);
            if (answer !== FINAL_ANSWER)
              throw new Error(`${contender.label} answered ${JSON.stringify(answer)}`);
          });
          return { value: runs / ((performance.now() - t0) / 1000) };
        },
      })),
      config.concurrentRounds,
      // As many warm-up conversations per contender as the sequential suite runs (once).
      level === 0 ? Math.ceil((config.httpWarmupRounds * config.httpRuns) / runs) : 1,
    );
    const get = (label: string) => samples.get(label);
    const at = `${inFlight} in flight`;
    const sdkRatio = level === 0 ? pairRatios(get('rxagent'), get('openai SDK loop')) : [];
    const nodeRatio = pairRatios(get('rxagent'), get(NODE_LOOP));
    rows.push(
      ...series.map((c) => row(`${at}, ${c.label}: conversations per second`, '/s', get(c.label))),
      row(`${at}, rxagent / ${NODE_LOOP} (throughput)`, '×', nodeRatio),
    );
    if (level === 0) {
      rows.push(
        row(`${at}, rxagent / openai SDK loop (throughput)`, '×', sdkRatio),
        row(
          `${at}, rxagent / fetch loop (throughput)`,
          '×',
          pairRatios(get('rxagent'), get('fetch loop')),
        ),
      );
    }
    if (level === 0) {
      budgets.push(
        atLeast(
          'HTTP concurrent: rxagent ≥ 1.3 × the openai SDK loop in conversations per second',
          summarize(sdkRatio).median,
          1.3,
          '×',
        ),
      );
    }
    budgets.push(
      atLeast(
        `HTTP concurrent, ${at}: rxagent ≥ 0.6 × the node:http loop in conversations per second`,
        summarize(nodeRatio).median,
        0.6,
        '×',
      ),
    );
    details[`inFlight${inFlight}`] = samples.toJSON();
  }
  await server.assertNoRejections();
  return {
    id: 'httpConcurrent',
    title: `HTTP concurrent: ${levels.map((l) => `${l.inFlight} in flight (${l.runs} per sample)`).join(', then ')}, ${CALLS_PER_RUN} model calls each, ${config.concurrentRounds} rounds`,
    rows,
    budgets,
    details,
  };
}
