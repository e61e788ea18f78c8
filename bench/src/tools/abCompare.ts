/**
 * Before/after comparison of two builds of rxagent in one process (not part of `pnpm bench`):
 * A B A B ... rounds of the same conversation, in process or over HTTP, with the ratio B/A
 * taken round by round. Both builds load side by side (two module instances), so machine
 * noise hits both alike. Build a snapshot first with src/build/buildPackages.ts.
 * Usage: `node --expose-gc --import tsx --import ./src/build/register.mjs src/tools/abCompare.ts <buildA> <buildB> inprocess|http|replay [rounds] [runs]`
 * (`replay`: the real SDK over a fetch replaying recorded server replies, see lib/replayFetch.ts).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { lastValueFrom } from 'rxjs';
import { interleave } from '../lib/interleave.js';
import { REPLAY_BASE_URL, recordReplies, replayFetch } from '../lib/replayFetch.js';
import { pairRatios, summarize } from '../lib/stats.js';
import {
  CALLS_PER_RUN,
  FINAL_ANSWER,
  SYSTEM_PROMPT,
  scenarioTurn,
  USER_PROMPT,
} from '../scenario/conversation.js';
import { BENCH_TOOLS } from '../scenario/tools.js';
import { ServerProcess } from '../server/serverProcess.js';

type Core = typeof import('@rxagent/core');
type Testing = typeof import('@rxagent/core/testing');
type React = typeof import('@rxagent/react-agent');

interface Build {
  readonly core: Core;
  readonly testing: Testing;
  readonly react: React;
}

async function load(dir: string): Promise<Build> {
  const at = (path: string) => pathToFileURL(join(dir, 'node_modules/@rxagent', path)).href;
  return {
    core: (await import(at('core/index.js'))) as Core,
    testing: (await import(at('core/testing/index.js'))) as Testing,
    react: (await import(at('react-agent/index.js'))) as React,
  };
}

function conversation(
  build: Build,
  baseURL: string | undefined,
  fetchImpl: typeof fetch | undefined,
): () => Promise<string> {
  const { core, testing, react } = build;
  const toolkit = new core.Toolkit(
    BENCH_TOOLS.map((t) =>
      core.tool({ name: t.name, description: t.description, parameters: t.args, execute: t.run }),
    ),
  );
  const http = baseURL
    ? new react.OpenAIChatModel({
        model: 'bench-model',
        baseURL,
        apiKey: 'k',
        ...(fetchImpl && { fetch: fetchImpl }),
      })
    : undefined;
  const reply = (request: { messages: Parameters<typeof scenarioTurn>[0] }) =>
    scenarioTurn(request.messages);
  return async () => {
    const model =
      http ??
      new testing.ScriptedChatModel(
        Array.from({ length: CALLS_PER_RUN }, () => reply),
        { strict: false },
      );
    const agent = new react.ReActAgent({
      name: 'assistant',
      sysPrompt: SYSTEM_PROMPT,
      model,
      toolkit,
    });
    const answer = await lastValueFrom(agent.call(core.userMsg(USER_PROMPT)));
    const block = answer.content[0];
    return block?.type === 'text' ? block.text : '';
  };
}

const [dirA, dirB, mode = 'inprocess', roundsArg = '15', runsArg] = process.argv.slice(2);
if (!dirA || !dirB)
  throw new Error('usage: abCompare.ts <buildA> <buildB> inprocess|http|replay [rounds] [runs]');
const runs = Number(runsArg ?? (mode === 'http' ? 40 : mode === 'replay' ? 200 : 400));
const server = mode === 'inprocess' ? undefined : await ServerProcess.start();
try {
  // replay: the real SDK and OpenAIChatModel over a fetch that replays recorded replies.
  const replay =
    mode === 'replay' && server ? replayFetch(await recordReplies(server.baseURL)) : undefined;
  const baseURL = replay ? REPLAY_BASE_URL : server?.baseURL;
  const builds = { A: await load(dirA), B: await load(dirB) };
  const samples = await interleave(
    (['A', 'B'] as const).map((label) => {
      const run = conversation(builds[label], baseURL, replay);
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
