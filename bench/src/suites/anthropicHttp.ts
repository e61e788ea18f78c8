import { createNodeFetch } from '@rxagent/react-agent';
import { anthropicSdkLoop } from '../contenders/anthropicSdkLoop.js';
import type { Contender } from '../contenders/contender.js';
import { rxagentAnthropic } from '../contenders/rxagentAnthropic.js';
import type { BenchConfig } from '../lib/config.js';
import { interleave } from '../lib/interleave.js';
import { atMost, row, type SuiteResult } from '../lib/result.js';
import { pairRatios, summarize } from '../lib/stats.js';
import { timeConversations } from '../lib/timeConversations.js';
import { CALLS_PER_RUN } from '../scenario/conversation.js';
import { ServerProcess } from '../server/serverProcess.js';

const RX = 'rxagent (Anthropic)';
const SDK = 'Anthropic SDK loop';
const SDK_ON_NODE = 'Anthropic SDK loop on createNodeFetch';

/**
 * The Anthropic line: the benchmark conversation over the Messages API, M conversations one
 * after another per contender, interleaved, against the strict Anthropic server in its own
 * process. `AnthropicChatModel` runs as users get it (its default transport,
 * `createNodeFetch`); the hand-written loop on `@anthropic-ai/sdk` runs on the SDK as
 * shipped (Node's `fetch`), and once more on `createNodeFetch`, so the framework's own share
 * shows apart from the transport's.
 */
export async function anthropicHttp(config: BenchConfig): Promise<SuiteResult> {
  const server = await ServerProcess.start('anthropicServerMain.ts');
  try {
    const contenders: Contender[] = [
      rxagentAnthropic(server.baseURL, RX),
      anthropicSdkLoop(server.baseURL, SDK),
      anthropicSdkLoop(server.baseURL, SDK_ON_NODE, createNodeFetch()),
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
    const sdkRatio = pairRatios(get(RX), get(SDK));
    return {
      id: 'anthropicHttp',
      title: `Anthropic over HTTP: ${config.httpRuns} conversations × ${CALLS_PER_RUN} model calls per sample, ${config.httpRounds} rounds after ${config.httpWarmupRounds} warm-up rounds`,
      rows: [
        ...contenders.map((c) => row(`${c.label}: wall per model call`, 'µs', get(c.label))),
        ...contenders.map((c) => row(`${c.label}: client CPU per model call`, 'µs', cpu(c.label))),
        row(`${RX} / ${SDK} (wall)`, '×', sdkRatio),
        row(`${RX} / ${SDK} (client CPU)`, '×', pairRatios(cpu(RX), cpu(SDK))),
        row(`${RX} / ${SDK_ON_NODE} (wall)`, '×', pairRatios(get(RX), get(SDK_ON_NODE))),
      ],
      budgets: [
        atMost(
          'Anthropic over HTTP: AnthropicChatModel in a ReActAgent ≤ 1.0 × the hand-written @anthropic-ai/sdk loop per model call',
          summarize(sdkRatio).median,
          1.0,
          '×',
        ),
      ],
      details: { samples: samples.toJSON() },
    };
  } finally {
    await server.close();
  }
}
