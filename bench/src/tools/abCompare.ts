import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, of } from 'rxjs';
import { z } from 'zod';
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
import { BENCH_TOOLS } from '../scenario/tools.js';

// The durable suite's long chat (scenario/longChat.ts, which imports the source packages):
// a question gets a read_source call, its 5 KB result an answer.
const LONG_CHAT_PROMPT =
  'You are a research assistant. Read a source for every question and answer in one sentence.';
const LONG_CHAT_ANSWER = 'The review covers trials, costs and deployment.';
const longChatQuestion = (turn: number) =>
  `Question ${turn}: what does the review say about topic ${turn % 37}?`;

class LongChatModel {
  readonly modelName = 'long-chat';
  #calls = 0;
  stream(request: { messages: readonly { role: string }[] }) {
    const last = request.messages[request.messages.length - 1];
    if (last?.role !== 'user')
      return of(
        { text: 'The review covers ' },
        { text: 'trials, costs and deployment.' },
        {
          finishReason: 'stop' as const,
        },
      );
    const id = `call_${++this.#calls}`;
    return of(
      { toolCalls: [{ index: 0, id, name: 'read_source', arguments: '{"topic":"solar"}' }] },
      { finishReason: 'tool_calls' as const },
    );
  }
}

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

/** The durable suite's turns of one conversation (`durable*` scenarios). */
const DURABLE_TURNS = 20;

/**
 * The durable suite's in-process chat on `build`: a fresh durable ReActAgent per run (a
 * session of `kind`, or not durable), the long research chat's 20 turns (a question, a
 * `read_source` call with a 5 KB result, an answer: 7 checkpoints a turn).
 */
function durableConversation(
  build: Build,
  kind: 'none' | 'memory' | 'file',
  dir: string,
): () => Promise<string> {
  const { core, react } = build;
  const page = 'The review covers trials, costs and deployment. '.repeat(105);
  const toolkit = new core.Toolkit([
    core.tool({
      name: 'read_source',
      description: 'Reads the review article about a topic.',
      parameters: z.object({ topic: z.string() }),
      execute: ({ topic }) => `# ${topic}\n${page}`.slice(0, 5_000),
    }),
  ]);
  let keys = 0;
  return async () => {
    const session =
      kind === 'memory'
        ? new core.InMemorySession()
        : kind === 'file'
          ? new core.JsonFileSession(dir)
          : undefined;
    const agent = new react.ReActAgent({
      name: 'researcher',
      sysPrompt: LONG_CHAT_PROMPT,
      model: new LongChatModel(),
      toolkit,
      ...(session && { durable: { session, key: `run-${keys++}` } }),
    });
    let text = '';
    for (let turn = 0; turn < DURABLE_TURNS; turn++) {
      const reply = await lastValueFrom(agent.call(core.userMsg(longChatQuestion(turn))));
      text = core.textOf(reply);
    }
    return text;
  };
}

const DURABLE_MODES = {
  durable: 'memory',
  'durable-file': 'file',
  'durable-none': 'none',
} as const;

const [dirA, dirB, mode = 'inprocess', roundsArg = '15', runsArg] = process.argv.slice(2);
if (!dirA || !dirB)
  throw new Error(
    'usage: abCompare.ts <buildA> <buildB> inprocess|host|http|replay|durable|durable-file|durable-none [rounds] [runs]',
  );
const durableKind = DURABLE_MODES[mode as keyof typeof DURABLE_MODES];
const runs = Number(
  runsArg ??
    (mode === 'http'
      ? 40
      : mode === 'replay'
        ? 200
        : durableKind === 'file'
          ? 2
          : durableKind
            ? 10
            : 400),
);
const dir = mkdtempSync(join(tmpdir(), 'rxagent-ab-durable-'));
const server =
  mode === 'inprocess' || mode === 'host' || durableKind ? undefined : await ServerProcess.start();
try {
  // replay: the real SDK and OpenAIChatModel over a fetch that replays recorded replies.
  const replay =
    mode === 'replay' && server ? replayFetch(await recordReplies(server.baseURL)) : undefined;
  const baseURL = replay ? REPLAY_BASE_URL : server?.baseURL;
  const builds = { A: await loadBuild(dirA), B: await loadBuild(dirB) };
  const samples = await interleave(
    (['A', 'B'] as const).map((label) => {
      const run = durableKind
        ? durableConversation(builds[label], durableKind, dir)
        : mode === 'host'
          ? hostConversation(builds[label])
          : conversation(builds[label], baseURL, replay);
      const answer = durableKind ? LONG_CHAT_ANSWER : FINAL_ANSWER;
      const calls = runs * (durableKind ? DURABLE_TURNS : CALLS_PER_RUN);
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
    Number(roundsArg),
    2,
  );
  for (const key of ['cpu', 'wall']) {
    const a = summarize(samples.get('A', key));
    const b = summarize(samples.get('B', key));
    const ratio = summarize(pairRatios(samples.get('B', key), samples.get('A', key)));
    process.stdout.write(
      `${mode} ${key} µs per ${durableKind ? 'turn' : 'model call'}: A ${a.median.toFixed(1)} (${a.min.toFixed(1)}–${a.max.toFixed(1)}), ` +
        `B ${b.median.toFixed(1)} (${b.min.toFixed(1)}–${b.max.toFixed(1)}), B/A ${ratio.median.toFixed(3)} (${ratio.min.toFixed(3)}–${ratio.max.toFixed(3)})\n`,
    );
  }
} finally {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
}
