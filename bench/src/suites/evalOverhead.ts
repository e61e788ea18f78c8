import { type AgentBase, Toolkit, tool, userMsg } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { type EvalCase, evaluate, includes } from '@rxagent/eval';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { z } from 'zod';
import type { BenchConfig } from '../lib/config.js';
import { interleave } from '../lib/interleave.js';
import { atMost, row, type SuiteResult } from '../lib/result.js';
import { pairDifferences, pairRatios, summarize } from '../lib/stats.js';

const lookup = tool({
  name: 'lookup',
  description: 'Looks a city up.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: 21 °C`,
});

/** One case's agent: a ReAct call with one tool step and a streamed answer, in process. */
function agentFor(testCase: EvalCase): AgentBase {
  return new ReActAgent({
    name: 'bench',
    sysPrompt: 'Use lookup.',
    toolkit: new Toolkit([lookup]),
    model: new ScriptedChatModel([
      { toolCalls: [{ name: 'lookup', arguments: { city: testCase.id } }] },
      `It is 21 °C in ${testCase.id} today, a fine day for a walk by the river.`,
    ]),
  });
}

/**
 * Suite: `evaluate()` over a dataset against calling the same agents directly, one case
 * after another (each a fresh ReActAgent, a tool step and a streamed answer): the runner's
 * cost per case over `call()`, and over `stream()` (which it calls: the rest is the timed
 * trace, an `includes` scorer and the report), in microseconds.
 */
export async function evalOverhead(config: BenchConfig): Promise<SuiteResult> {
  const count = config.quick ? 50 : 200;
  const dataset: EvalCase[] = Array.from({ length: count }, (_, i) => ({
    id: `city${i}`,
    input: `Weather in city${i}?`,
    expected: '21 °C',
  }));
  const timed = async (run: () => Promise<unknown>) => {
    const t0 = performance.now();
    await run();
    return { value: ((performance.now() - t0) * 1000) / count };
  };
  const series = [
    {
      label: 'agent.call() directly',
      sample: () =>
        timed(async () => {
          for (const testCase of dataset) {
            await lastValueFrom(agentFor(testCase).call(userMsg(testCase.input as string)));
          }
        }),
    },
    {
      label: 'agent.stream() directly',
      sample: () =>
        timed(async () => {
          for (const testCase of dataset) {
            await lastValueFrom(agentFor(testCase).stream(userMsg(testCase.input as string)));
          }
        }),
    },
    {
      label: 'evaluate()',
      sample: () =>
        timed(async () => {
          const report = await evaluate({
            dataset,
            agent: agentFor,
            scorers: [includes()],
            progress: false,
          });
          if (report.scorers['includes']?.passRate !== 1) throw new Error('a bench case failed');
        }),
    },
  ];
  const samples = await interleave(series, config.rounds, 2);
  const direct = samples.get('agent.call() directly');
  const streamed = samples.get('agent.stream() directly');
  const evaluated = samples.get('evaluate()');
  const overhead = pairDifferences(evaluated, direct);
  const ownCost = pairDifferences(evaluated, streamed);
  return {
    id: 'evalOverhead',
    title: `evaluate() against direct calls: ${count} cases per sample, ${config.rounds} rounds`,
    rows: [
      row('agent.call() directly, per case', 'µs', direct),
      row('agent.stream() directly, per case', 'µs', streamed),
      row('evaluate(), per case', 'µs', evaluated),
      row('evaluate() / call()', '×', pairRatios(evaluated, direct)),
      row('evaluate() − call(), per case', 'µs', overhead),
      row('evaluate() − stream(), per case (trace, scorer, report)', 'µs', ownCost),
    ],
    budgets: [
      atMost(
        'evaluate(): cost over calling the agent ≤ 1,000 µs per case (one tool step)',
        summarize(overhead).median,
        1_000,
        'µs',
      ),
      atMost(
        "evaluate(): the runner's cost per case ≤ 5 % of the agent's own call() time",
        summarize(pairRatios(evaluated, direct)).median * 100 - 100,
        5,
        '%',
      ),
    ],
    details: { samples: samples.toJSON() },
  };
}
