import { join } from 'node:path';
import { lastValueFrom } from 'rxjs';
import { type Build, buildConversation, sqliteOf } from '../lib/loadBuild.js';
import {
  CALLS_PER_RUN,
  FINAL_ANSWER,
  SYSTEM_PROMPT,
  scenarioTurn,
  USER_PROMPT,
} from '../scenario/conversation.js';
import {
  LONG_CHAT_PROMPT,
  LongChatModel,
  longChatQuestion,
  longChatToolkit,
} from '../scenario/longChat.js';
import { BENCH_TOOLS } from '../scenario/tools.js';

/** One scenario of `abCompare.ts` on one build: a run, its expected answer, its model calls. */
export interface AbRun {
  readonly run: () => Promise<string>;
  readonly answer: string;
  /** Model calls (or durable turns) per run: the unit the figures are per. */
  readonly callsPerRun: number;
}

/** The benchmark conversation on `build`, over HTTP when a `baseURL` is given (else in process). */
export function conversation(
  build: Build,
  baseURL: string | undefined,
  fetchImpl: typeof fetch | undefined,
): AbRun {
  const model = baseURL
    ? new build.react.OpenAIChatModel({
        model: 'bench-model',
        baseURL,
        apiKey: 'k',
        ...(fetchImpl && { fetch: fetchImpl }),
      })
    : undefined;
  const run = model ? buildConversation(build, () => model) : buildConversation(build);
  return { run, answer: FINAL_ANSWER, callsPerRun: CALLS_PER_RUN };
}

/** The conversation over the Messages API on `build`'s `AnthropicChatModel` (its default transport). */
export function anthropicConversation(build: Build, baseURL: string): AbRun {
  const model = new build.anthropic.AnthropicChatModel({
    model: 'bench-model',
    baseURL,
    apiKey: 'bench-key',
    maxTokens: 1024,
  });
  return {
    run: buildConversation(build, () => model),
    answer: FINAL_ANSWER,
    callsPerRun: CALLS_PER_RUN,
  };
}

/**
 * The conversation in process on a thread of an `AgentHost` of `build`: a new thread per
 * run (its agent made on first use, as a warm thread's would be), forgotten after it.
 */
export function hostConversation(build: Build): AbRun {
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
  const run = async () => {
    const threadId = `t${thread++}`;
    const reply = await host.reply(threadId, USER_PROMPT);
    await host.delete(threadId);
    return core.textOf(reply);
  };
  return { run, answer: FINAL_ANSWER, callsPerRun: CALLS_PER_RUN };
}

/** Turns of one durable conversation (`durable*` scenarios). */
const DURABLE_TURNS = 20;

/** What the long chat's model answers after a tool result. */
const LONG_CHAT_ANSWER = 'The review covers trials, costs and deployment.';

/** Where a durable scenario keeps its state: an InMemorySession, a JsonFileSession in `dir`, or nowhere. */
export type DurableKind = 'memory' | 'file' | 'sqlite' | 'none';

let databases = 0;

/**
 * The durable suite's in-process chat on `build`: a fresh ReActAgent per run, durable on a
 * session of `kind` (or not durable), the long research chat's 20 turns (a question, a
 * `read_source` call with a 5 KB result, an answer: 7 checkpoints a turn). The toolkit is
 * the build's own; the model keeps nothing between requests.
 */
export function durableConversation(build: Build, kind: DurableKind, dir: string): AbRun {
  const { core, react } = build;
  const toolkit = longChatToolkit(core);
  let keys = 0;
  const sqlite = kind === 'sqlite' ? sqliteOf(build) : undefined;
  // Keys and a file of this build's own: two builds' runs must not meet in one directory.
  const own = ++databases;
  const file = join(dir, `sessions-${own}.db`);
  const run = async () => {
    const session =
      kind === 'memory'
        ? new core.InMemorySession()
        : kind === 'file'
          ? new core.JsonFileSession(dir)
          : sqlite
            ? new (await sqlite).SqliteSession({ path: file })
            : undefined;
    const agent = new react.ReActAgent({
      name: 'researcher',
      sysPrompt: LONG_CHAT_PROMPT,
      model: new LongChatModel(),
      toolkit,
      ...(session && { durable: { session, key: `run-${own}-${keys++}` } }),
    });
    let text = '';
    for (let turn = 0; turn < DURABLE_TURNS; turn++) {
      const reply = await lastValueFrom(agent.call(core.userMsg(longChatQuestion(turn))));
      text = core.textOf(reply);
    }
    if (session && 'close' in session) await (session as { close(): Promise<void> }).close();
    return text;
  };
  return { run, answer: LONG_CHAT_ANSWER, callsPerRun: DURABLE_TURNS };
}
