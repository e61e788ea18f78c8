import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { lastValueFrom } from 'rxjs';
import { interleave } from '../lib/interleave.js';
import { type Build, buildConversation, loadBuild } from '../lib/loadBuild.js';
import { REPLAY_BASE_URL, recordReplies, replayFetch } from '../lib/replayFetch.js';
import { pairRatios, summarize } from '../lib/stats.js';
import {
  CALLS_PER_RUN,
  FINAL_ANSWER,
  SYSTEM_PROMPT,
  scenarioTurn,
  USER_PROMPT,
} from '../scenario/conversation.js';
import { evalAgentFactory, evalDataset } from '../scenario/evalCases.js';
import { BENCH_TOOLS } from '../scenario/tools.js';
import { ServerProcess } from '../server/serverProcess.js';

/** The conversation on `build`, over HTTP when a `baseURL` is given (else in process). */
function conversation(
  build: Build,
  baseURL: string | undefined,
  fetchImpl: typeof fetch | undefined,
): () => Promise<string> {
  if (!baseURL) return buildConversation(build);
  const http = new build.react.OpenAIChatModel({
    model: 'bench-model',
    baseURL,
    apiKey: 'k',
    ...(fetchImpl && { fetch: fetchImpl }),
  });
  return buildConversation(build, () => http);
}

/** The conversation over the Messages API on `build`'s `AnthropicChatModel` (its default transport). */
function anthropicConversation(build: Build, baseURL: string): () => Promise<string> {
  const model = new build.anthropic.AnthropicChatModel({
    model: 'bench-model',
    baseURL,
    apiKey: 'bench-key',
    maxTokens: 1024,
  });
  return buildConversation(build, () => model);
}

/**
 * The conversation in process on a thread of an `AgentHost` of `build`: a new thread per
 * run (its agent made on first use, as a warm thread's would be), forgotten after it.
 */
function hostConversation(build: Build): () => Promise<string> {
  const { core, react, testing } = build;
  const toolkit = new core.Toolkit(
    BENCH_TOOLS.map((t) =>
      core.tool({ name: t.name, description: t.description, parameters: t.args, execute: t.run }),
    ),
  );
  const host = new core.AgentHost({
    create: () =>
      new react.ReActAgent({
        name: 'assistant',
        sysPrompt: SYSTEM_PROMPT,
        model: new testing.ScriptedChatModel(
          Array.from(
            { length: CALLS_PER_RUN },
            () => (request: { messages: Parameters<typeof scenarioTurn>[0] }) =>
              scenarioTurn(request.messages),
          ),
          { strict: false },
        ),
        toolkit,
      }),
  });
  let thread = 0;
  return async () => {
    const threadId = `t${thread++}`;
    const reply = await host.reply(threadId, USER_PROMPT);
    await host.delete(threadId);
    return core.textOf(reply);
  };
}

type Eval = typeof import('@rxagent/eval');

/**
 * The eval scenario on `dir`'s build (the `evalOverhead` suite's dataset and agents): two
 * series, `cases` cases through the agents' `call()` directly and the same cases through
 * `evaluate()` (an `includes` scorer), each sample in CPU µs per case.
 */
async function evalSeries(label: string, dir: string, cases: number) {
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

const [dirA, dirB, mode = 'inprocess', roundsArg = '15', runsArg] = process.argv.slice(2);
if (!dirA || !dirB)
  throw new Error(
    'usage: abCompare.ts <buildA> <buildB> inprocess|host|http|replay|anthropic|eval [rounds] [runs]',
  );
if (mode === 'eval') {
  // Four series interleaved (A call, A eval, B call, B eval), the order rotating each round.
  const cases = Number(runsArg ?? 200);
  const series = [...(await evalSeries('A', dirA, cases)), ...(await evalSeries('B', dirB, cases))];
  const samples = await interleave(series, Number(roundsArg), 2);
  for (const kind of ['call', 'eval']) {
    const a = summarize(samples.get(`A ${kind}`));
    const b = summarize(samples.get(`B ${kind}`));
    const ratio = summarize(pairRatios(samples.get(`B ${kind}`), samples.get(`A ${kind}`)));
    process.stdout.write(
      `eval ${kind} CPU µs per case: A ${a.median.toFixed(1)} (${a.min.toFixed(1)}–${a.max.toFixed(1)}), ` +
        `B ${b.median.toFixed(1)} (${b.min.toFixed(1)}–${b.max.toFixed(1)}), B/A ${ratio.median.toFixed(3)} (${ratio.min.toFixed(3)}–${ratio.max.toFixed(3)})\n`,
    );
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
const overHttp = mode === 'http' || mode === 'anthropic';
const runs = Number(runsArg ?? (overHttp ? 40 : mode === 'replay' ? 200 : 400));
const server =
  mode === 'inprocess' || mode === 'host'
    ? undefined
    : await ServerProcess.start(mode === 'anthropic' ? 'anthropicServerMain.ts' : undefined);
try {
  // replay: the real SDK and OpenAIChatModel over a fetch that replays recorded replies.
  const replay =
    mode === 'replay' && server ? replayFetch(await recordReplies(server.baseURL)) : undefined;
  const baseURL = replay ? REPLAY_BASE_URL : server?.baseURL;
  const builds = { A: await loadBuild(dirA), B: await loadBuild(dirB) };
  const samples = await interleave(
    (['A', 'B'] as const).map((label) => {
      const run =
        mode === 'host'
          ? hostConversation(builds[label])
          : mode === 'anthropic'
            ? anthropicConversation(builds[label], baseURL!)
            : conversation(builds[label], baseURL, replay);
      return {
        label,
        sample: async () => {
          const cpu0 = process.cpuUsage();
          const t0 = performance.now();
          for (let i = 0; i < runs; i++) {
            if ((await run()) !== FINAL_ANSWER) throw new Error(`${label}: wrong answer`);
          }
          const cpu = process.cpuUsage(cpu0);
          const calls = runs * CALLS_PER_RUN;
          return {
            wall: ((performance.now() - t0) * 1000) / calls,
            cpu: (cpu.user + cpu.system) / calls,
          };
        },
      };
    }),
    Number(roundsArg),
    2,
  );
  for (const key of ['cpu', 'wall']) {
    const a = summarize(samples.get('A', key));
    const b = summarize(samples.get('B', key));
    const ratio = summarize(pairRatios(samples.get('B', key), samples.get('A', key)));
    process.stdout.write(
      `${mode} ${key} µs per model call: A ${a.median.toFixed(1)} (${a.min.toFixed(1)}–${a.max.toFixed(1)}), ` +
        `B ${b.median.toFixed(1)} (${b.min.toFixed(1)}–${b.max.toFixed(1)}), B/A ${ratio.median.toFixed(3)} (${ratio.min.toFixed(3)}–${ratio.max.toFixed(3)})\n`,
    );
  }
} finally {
  await server?.close();
}
