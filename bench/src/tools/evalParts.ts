/**
 * Where the eval runner's cost over `call()` goes, on one build: the `evalOverhead` suite's
 * agents and cases through four series, interleaved round by round (order rotating), CPU µs
 * per case and the median of the per-round ratios to `call()`:
 * `call` (the bare agent), `tapped` (the same calls with a tap that keeps nothing: the agent
 * building the trace's events), `streamed` (the same events through `stream({ events })`,
 * each a frozen snapshot: how the runner took them before the tap), `recorded` (the tap recording each run's trace, every trace
 * kept, as a report keeps them) and `evaluate` (the runner: trace, `includes` scorer, report).
 * Usage: `node --conditions=@rxagent/source --import tsx src/tools/evalParts.ts <build> [rounds] [cases]`
 * with a build from `src/build/buildPackages.ts`. The young generation's size moves every
 * series (run it with `node --max-semi-space-size=64 …` to see what the scavenger costs).
 * `--work` counts instead of timing, which the machine's load does not move: bytes allocated
 * (a sampling heap profile, objects the GC collected included) and Observable subscriptions
 * per case of each series. (On a build from before the tap, `tapped` and `recorded` are left out.)
 */

import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { lastValueFrom, Observable } from 'rxjs';
import { loadBuild } from '../lib/loadBuild.js';
import { pairRatios, summarize } from '../lib/stats.js';
import { evalAgentFactory, evalDataset } from '../scenario/evalCases.js';

type Eval = typeof import('@rxagent/eval');
type Trace = typeof import('../../../packages/eval/src/trace/runTrace.js');

const work = process.argv.includes('--work');
const [dir, roundsArg = '15', casesArg = '1000'] = process.argv
  .slice(2)
  .filter((arg) => !arg.startsWith('--'));
if (!dir) throw new Error('usage: evalParts.ts <build> [rounds] [cases]');
const build = await loadBuild(dir);
const url = (path: string) => pathToFileURL(join(dir, 'node_modules/@rxagent/eval', path)).href;
const { evaluate, includes } = (await import(url('index.js'))) as Eval;
const { RunTrace, TRACE_EVENTS } = (await import(url('trace/runTrace.js'))) as Trace;
const cases = Number(casesArg);
const dataset = evalDataset(cases);
const agentFor = evalAgentFactory(build);
const input = (text: unknown) => build.core.userMsg(text as string);
const ignore = { events: TRACE_EVENTS, onEvent() {} };

const series: Record<string, () => Promise<unknown>> = {
  call: async () => {
    for (const c of dataset) await lastValueFrom(agentFor(c).call(input(c.input)));
  },
  tapped: async () => {
    for (const c of dataset) await lastValueFrom(agentFor(c).call(input(c.input), { tap: ignore }));
  },
  recorded: async () => {
    const kept: unknown[] = [];
    for (const c of dataset) {
      const trace = new RunTrace(performance.now());
      const tap = { events: TRACE_EVENTS, onEvent: trace.record.bind(trace) };
      const reply = await lastValueFrom(agentFor(c).call(input(c.input), { tap }));
      trace.record({ type: 'reply', msg: reply });
      kept.push(trace.entries);
    }
    return kept;
  },
  streamed: async () => {
    const options = { events: TRACE_EVENTS };
    for (const c of dataset) await lastValueFrom(agentFor(c).stream(input(c.input), options));
  },
  evaluate: () => evaluate({ dataset, agent: agentFor, scorers: [includes()], progress: false }),
};

// A build from before the tap rejects the option: its tap series are left out.
const hasTap = await lastValueFrom(agentFor(dataset[0]!).call(input('x'), { tap: ignore })).then(
  () => true,
  () => false,
);
const names = Object.keys(series).filter(
  (name) => hasTap || (name !== 'tapped' && name !== 'recorded'),
);
if (work) {
  await countWork();
  process.exit(0);
}
const samples = new Map(names.map((name) => [name, [] as number[]]));
const warmup = 2;
for (let round = 0; round < Number(roundsArg) + warmup; round++) {
  for (let i = 0; i < names.length; i++) {
    const name = names[(i + round) % names.length]!;
    const cpu0 = process.cpuUsage();
    await series[name]!();
    const cpu = process.cpuUsage(cpu0);
    if (round >= warmup) samples.get(name)!.push((cpu.user + cpu.system) / cases);
  }
}
const base = samples.get('call')!;
for (const name of names) {
  const values = samples.get(name)!;
  const ratio = summarize(pairRatios(values, base));
  console.log(
    `${name.padEnd(9)} ${summarize(values).median.toFixed(1)} µs/case, ×call ${ratio.median.toFixed(3)} (${ratio.min.toFixed(3)} – ${ratio.max.toFixed(3)})`,
  );
}

/** Bytes allocated and subscriptions per case of each series, after a warm-up run of each. */
async function countWork(): Promise<void> {
  const session = new Session();
  session.connect();
  const proto = Observable.prototype as unknown as { subscribe: (...args: unknown[]) => unknown };
  const subscribe = proto.subscribe;
  for (const name of names) {
    await series[name]!();
    let subscriptions = 0;
    proto.subscribe = function (this: unknown, ...args: unknown[]) {
      subscriptions++;
      return subscribe.apply(this, args);
    };
    await series[name]!();
    proto.subscribe = subscribe;
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 128,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    } as never);
    await series[name]!();
    const { profile } = await session.post('HeapProfiler.stopSampling');
    await session.post('HeapProfiler.disable');
    type HeapNode = { selfSize: number; children: HeapNode[] };
    const total = (node: HeapNode): number =>
      node.children.reduce((sum, child) => sum + total(child), node.selfSize);
    const bytes = total(profile.head as unknown as HeapNode);
    console.log(
      `${name.padEnd(9)} ${(bytes / cases / 1024).toFixed(2)} KB allocated, ${(subscriptions / cases).toFixed(1)} subscriptions per case`,
    );
  }
  session.disconnect();
}
