import * as core from '@rxagent/core';
import * as testing from '@rxagent/core/testing';
import { evaluate, includes } from '@rxagent/eval';
import * as react from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import type { BenchConfig } from '../lib/config.js';
import { interleave } from '../lib/interleave.js';
import { atMost, row, type SuiteResult } from '../lib/result.js';
import { pairDifferences, pairRatios, summarize } from '../lib/stats.js';
import { evalAgentFactory, evalDataset } from '../scenario/evalCases.js';

/**
 * Suite: `evaluate()` over a dataset against calling the same agents directly, one case
 * after another (each a fresh ReActAgent from one factory, a tool step and a streamed
 * answer): the runner's cost per case over the agent's own `call()` (what it adds: the timed
 * trace of every non-chunk event, an `includes` scorer and the report), in microseconds, and
 * a full `stream()` beside them for scale (the runner streamed every event before).
 *
 * Measured as process CPU time, like the other in-process lines (on a shared machine wall
 * time also counts the time other processes hold the cores; the garbage collector's work,
 * the price of the traces the report keeps, is CPU time and counts), with wall time in rows
 * alongside. 1,000 cases a sample (a sample of ~60 ms of `call()`), so one scavenge more or
 * less does not decide a round's ratio.
 */
export async function evalOverhead(config: BenchConfig): Promise<SuiteResult> {
  const count = config.quick ? 100 : 1_000;
  const dataset = evalDataset(count);
  const agentFor = evalAgentFactory({ core, testing, react });
  const timed = async (run: () => Promise<unknown>) => {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await run();
    const wall = ((performance.now() - t0) * 1000) / count;
    const cpu = process.cpuUsage(cpu0);
    return { value: (cpu.user + cpu.system) / count, wall };
  };
  const series = [
    {
      label: 'agent.call() directly',
      sample: () =>
        timed(async () => {
          for (const testCase of dataset) {
            await lastValueFrom(agentFor(testCase).call(core.userMsg(testCase.input as string)));
          }
        }),
    },
    {
      label: 'agent.stream() directly',
      sample: () =>
        timed(async () => {
          for (const testCase of dataset) {
            await lastValueFrom(agentFor(testCase).stream(core.userMsg(testCase.input as string)));
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
  const wall = (label: string) => samples.get(label, 'wall');
  const directWall = wall('agent.call() directly');
  const evaluatedWall = wall('evaluate()');
  return {
    id: 'evalOverhead',
    title: `evaluate() against direct calls: ${count} cases per sample, ${config.rounds} rounds, CPU time (wall alongside)`,
    rows: [
      row('agent.call() directly, CPU per case', 'µs', direct),
      row('agent.stream() directly, CPU per case', 'µs', streamed),
      row('evaluate(), CPU per case', 'µs', evaluated),
      row('evaluate() / call(), CPU', '×', pairRatios(evaluated, direct)),
      row('evaluate() − call(), CPU per case', 'µs', overhead),
      row('evaluate() − stream() (every event), CPU per case', 'µs', ownCost),
      row('agent.call() directly, wall per case', 'µs', directWall),
      row('agent.stream() directly, wall per case', 'µs', wall('agent.stream() directly')),
      row('evaluate(), wall per case', 'µs', evaluatedWall),
      row('evaluate() / call(), wall', '×', pairRatios(evaluatedWall, directWall)),
      row('evaluate() − call(), wall per case', 'µs', pairDifferences(evaluatedWall, directWall)),
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
