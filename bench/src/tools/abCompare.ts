/**
 * Two builds of rxagent side by side in one process, interleaved round by round (median of
 * the per-round ratios B/A): `node --conditions=@rxagent/source --import tsx
 * src/tools/abCompare.ts <buildA> <buildB> <scenario> [rounds] [runs]`, with builds made by
 * `src/build/buildPackages.ts <sourceRoot> <outDir>`. Scenarios: `inprocess` (the benchmark
 * conversation on a scripted model), `host` (the same on AgentHost threads), `http` (over
 * loopback HTTP against the bench server), `replay` (the SDK over a fetch replaying recorded
 * replies), `anthropic` (over the Messages API against the strict Anthropic server),
 * `durable` / `durable-file` / `durable-sqlite` / `durable-none` (the durable suite's 20-turn
 * chat on an InMemorySession, a JsonFileSession, a SqliteSession file, or not durable), `eval` (`evaluate()` against `call()`
 * on the eval suite's cases; `runs` is the number of cases).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evalSeries } from '../ab/evalSeries.js';
import {
  type AbRun,
  anthropicConversation,
  conversation,
  type DurableKind,
  durableConversation,
  hostConversation,
} from '../ab/scenarios.js';
import { interleave } from '../lib/interleave.js';
import { type Build, loadBuild } from '../lib/loadBuild.js';
import { REPLAY_BASE_URL, recordReplies, replayFetch } from '../lib/replayFetch.js';
import { pairRatios, summarize } from '../lib/stats.js';
import { ServerProcess } from '../server/serverProcess.js';

const MODES = [
  'inprocess',
  'host',
  'http',
  'replay',
  'anthropic',
  'durable',
  'durable-file',
  'durable-sqlite',
  'durable-none',
  'eval',
] as const;
type Mode = (typeof MODES)[number];

const DURABLE_KINDS: Partial<Record<Mode, DurableKind>> = {
  durable: 'memory',
  'durable-file': 'file',
  'durable-sqlite': 'sqlite',
  'durable-none': 'none',
};

const [dirA, dirB, modeArg = 'inprocess', roundsArg = '15', runsArg] = process.argv.slice(2);
if (!dirA || !dirB || !(MODES as readonly string[]).includes(modeArg)) {
  throw new Error(`usage: abCompare.ts <buildA> <buildB> ${MODES.join('|')} [rounds] [runs]`);
}
const mode = modeArg as Mode;
const rounds = Number(roundsArg);

const line = (what: string, a: number[], b: number[]) => {
  const sa = summarize(a);
  const sb = summarize(b);
  const ratio = summarize(pairRatios(b, a));
  const f = (n: number) => n.toFixed(1);
  process.stdout.write(
    `${what}: A ${f(sa.median)} (${f(sa.min)}–${f(sa.max)}), B ${f(sb.median)} (${f(sb.min)}–${f(sb.max)}), ` +
      `B/A ${ratio.median.toFixed(3)} (${ratio.min.toFixed(3)}–${ratio.max.toFixed(3)})\n`,
  );
};

if (mode === 'eval') {
  // Four series interleaved (A call, A eval, B call, B eval), the order rotating each round.
  const cases = Number(runsArg ?? 200);
  const series = [...(await evalSeries('A', dirA, cases)), ...(await evalSeries('B', dirB, cases))];
  const samples = await interleave(series, rounds, 2);
  for (const kind of ['call', 'eval']) {
    line(`eval ${kind} CPU µs per case`, samples.get(`A ${kind}`), samples.get(`B ${kind}`));
  }
  for (const label of ['A', 'B']) {
    const ratios = pairRatios(samples.get(`${label} eval`), samples.get(`${label} call`));
    const runner = summarize(ratios.map((ratio) => (ratio - 1) * 100));
    process.stdout.write(
      `eval ${label}: evaluate() over call() ${runner.median.toFixed(1)} % (${runner.min.toFixed(1)} – ${runner.max.toFixed(1)}), median of the per-round ratios\n`,
    );
  }
  process.exit(0);
}

const durableKind = DURABLE_KINDS[mode];
const overHttp = mode === 'http' || mode === 'replay' || mode === 'anthropic';
const runs = Number(
  runsArg ??
    (mode === 'http' || mode === 'anthropic'
      ? 40
      : mode === 'replay'
        ? 200
        : durableKind === 'file'
          ? 2
          : durableKind
            ? 10
            : 400),
);
const dir =
  durableKind === 'file' || durableKind === 'sqlite'
    ? mkdtempSync(join(tmpdir(), 'rxagent-ab-durable-'))
    : '';
const server = overHttp
  ? await ServerProcess.start(mode === 'anthropic' ? 'anthropicServerMain.ts' : undefined)
  : undefined;
try {
  // replay: the real SDK and OpenAIChatModel over a fetch that replays recorded replies.
  const replay =
    mode === 'replay' && server ? replayFetch(await recordReplies(server.baseURL)) : undefined;
  const baseURL = replay ? REPLAY_BASE_URL : server?.baseURL;
  const scenario = (build: Build): AbRun => {
    if (durableKind) return durableConversation(build, durableKind, dir);
    if (mode === 'host') return hostConversation(build);
    if (mode === 'anthropic') return anthropicConversation(build, baseURL!);
    return conversation(build, baseURL, replay);
  };
  const builds = { A: await loadBuild(dirA), B: await loadBuild(dirB) };
  const samples = await interleave(
    (['A', 'B'] as const).map((label) => {
      const { run, answer, callsPerRun } = scenario(builds[label]);
      const calls = runs * callsPerRun;
      return {
        label,
        sample: async () => {
          const cpu0 = process.cpuUsage();
          const t0 = performance.now();
          for (let i = 0; i < runs; i++) {
            if ((await run()) !== answer) throw new Error(`${label}: wrong answer`);
          }
          const cpu = process.cpuUsage(cpu0);
          return {
            wall: ((performance.now() - t0) * 1000) / calls,
            cpu: (cpu.user + cpu.system) / calls,
          };
        },
      };
    }),
    rounds,
    2,
  );
  const unit = durableKind ? 'turn' : 'model call';
  for (const key of ['cpu', 'wall']) {
    line(`${mode} ${key} µs per ${unit}`, samples.get('A', key), samples.get('B', key));
  }
} finally {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
