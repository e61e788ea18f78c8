import type { Contender } from '../contenders/contender.js';
import { fetchLoop } from '../contenders/fetchLoop.js';
import { rxagentHttp } from '../contenders/rxagentHttp.js';
import { sdkLoop } from '../contenders/sdkLoop.js';
import type { BenchConfig } from '../lib/config.js';
import { interleave } from '../lib/interleave.js';
import { atLeast, row, type SuiteResult } from '../lib/result.js';
import { pairRatios, pool, summarize } from '../lib/stats.js';
import { CALLS_PER_RUN, FINAL_ANSWER, USER_PROMPT } from '../scenario/conversation.js';
import type { ServerProcess } from '../server/serverProcess.js';

/** Suite 2: C conversations in flight at once (one agent each); conversations per second. */
export async function httpConcurrent(
  server: ServerProcess,
  config: BenchConfig,
): Promise<SuiteResult> {
  const contenders: Contender[] = [
    rxagentHttp(server.baseURL),
    sdkLoop(server.baseURL),
    fetchLoop(server.baseURL),
  ];
  const samples = await interleave(
    contenders.map((contender) => ({
      label: contender.label,
      sample: async () => {
        const t0 = performance.now();
        await pool(config.concurrentRuns, config.concurrency, async () => {
          const answer = await contender.run(USER_PROMPT);
          if (answer !== FINAL_ANSWER)
            throw new Error(`${contender.label} answered ${JSON.stringify(answer)}`);
        });
        return { value: config.concurrentRuns / ((performance.now() - t0) / 1000) };
      },
    })),
    config.concurrentRounds,
    // As many warm-up conversations per contender as the sequential suite runs.
    Math.ceil((config.httpWarmupRounds * config.httpRuns) / config.concurrentRuns),
  );
  await server.assertNoRejections();
  const get = (label: string) => samples.get(label);
  const sdkRatio = pairRatios(get('rxagent'), get('openai SDK loop'));
  return {
    id: 'httpConcurrent',
    title: `HTTP concurrent: ${config.concurrency} conversations in flight, ${config.concurrentRuns} per sample (${CALLS_PER_RUN} model calls each), ${config.concurrentRounds} rounds`,
    rows: [
      ...contenders.map((c) => row(`${c.label}: conversations per second`, '/s', get(c.label))),
      row('rxagent / openai SDK loop (throughput)', '×', sdkRatio),
      row('rxagent / fetch loop (throughput)', '×', pairRatios(get('rxagent'), get('fetch loop'))),
    ],
    budgets: [
      atLeast(
        'HTTP concurrent: rxagent ≥ 1.3 × the openai SDK loop in conversations per second',
        summarize(sdkRatio).median,
        1.3,
        '×',
      ),
    ],
    details: { samples: samples.toJSON() },
  };
}
