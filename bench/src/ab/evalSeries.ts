import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { lastValueFrom } from 'rxjs';
import { loadBuild } from '../lib/loadBuild.js';
import { evalAgentFactory, evalDataset } from '../scenario/evalCases.js';

type Eval = typeof import('@rxagent/eval');

/**
 * The eval scenario on `dir`'s build (the `evalOverhead` suite's dataset and agents): two
 * series, `cases` cases through the agents' `call()` directly and the same cases through
 * `evaluate()` (an `includes` scorer), each sample in CPU µs per case.
 */
export async function evalSeries(label: string, dir: string, cases: number) {
  const build = await loadBuild(dir);
  const url = pathToFileURL(join(dir, 'node_modules/@rxagent/eval/index.js')).href;
  const { evaluate, includes } = (await import(url)) as Eval;
  const dataset = evalDataset(cases);
  const agentFor = evalAgentFactory(build);
  const cpuPerCase = (run: () => Promise<void>) => async () => {
    const cpu0 = process.cpuUsage();
    await run();
    const cpu = process.cpuUsage(cpu0);
    return { value: (cpu.user + cpu.system) / cases };
  };
  return [
    {
      label: `${label} call`,
      sample: cpuPerCase(async () => {
        for (const testCase of dataset) {
          const input = build.core.userMsg(testCase.input as string);
          await lastValueFrom(agentFor(testCase).call(input));
        }
      }),
    },
    {
      label: `${label} eval`,
      sample: cpuPerCase(async () => {
        const report = await evaluate({
          dataset,
          agent: agentFor,
          scorers: [includes()],
          progress: false,
        });
        if (report.scorers['includes']?.passRate !== 1) throw new Error('an eval case failed');
      }),
    },
  ];
}
