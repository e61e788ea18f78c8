import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  type ChatMessage,
  type ChatRequest,
  type Checkpoint,
  JsonFileSession,
  type JsonObject,
  loadCheckpoint,
  type Msg,
  textOf as msgText,
  toolUses,
  unfinishedRuns,
  type VersionedSession,
} from '@rxagent/core';
import {
  type ScriptedTurn,
  type StrictOpenAIServer,
  startStrictOpenAIServer,
} from '@rxagent/core/testing';
import { runTsToEnd } from '../../../../scripts/testing/tsProcess.js';

const childFile = fileURLToPath(new URL('./crashChild.ts', import.meta.url));

/** How one child process ended. */
export interface ChildRun {
  readonly killed: boolean;
  readonly lines: readonly string[];
}

/**
 * A session store other than the default files, given as a module (so this harness needs
 * no dependency on the package that has it): `module` is the absolute path of a module
 * exporting `openSession(options: string, prefix: string)`, which returns a
 * `VersionedSession` (with `close()` when it holds connections); `options` is passed as is
 * (a Redis URL, say). The children open theirs the same way.
 */
export interface WorldStore {
  readonly module: string;
  readonly options: string;
}

/** A session a `WorldStore` opens. */
type WorldSession = VersionedSession & { close?: () => Promise<void> };

/** A durable conversation run across processes: a strict server, a session dir, a ledger. */
export interface CrashWorld {
  readonly server: StrictOpenAIServer;
  readonly dir: string;
  readonly ledger: string;
  readonly store: WorldStore | undefined;
  /** Runs one child (killing itself at `killAt`, if given) to its end. */
  run(options?: { killAt?: string; raceDir?: string }): Promise<ChildRun>;
  close(): Promise<void>;
}

/**
 * The model's side of the conversation, decided by the request alone, so a request sent
 * again gets the same kind of answer: per user turn, a round calling `lookup` and `charge`
 * in parallel, a round calling `charge`, then a text answer. Ids and texts carry the
 * request's index, so every reply is told apart from every other.
 */
export function shopReply(request: ChatRequest, index: number): ScriptedTurn {
  const messages = request.messages;
  let lastUser = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user' && m.name !== 'system') lastUser = i;
  });
  const turn = textOf(messages[lastUser]);
  const rounds = messages
    .slice(lastUser + 1)
    .filter((m) => m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0).length;
  const chunkSize = 4;
  if (rounds === 0)
    return {
      text: `Looking up ${turn}.`,
      chunkSize,
      toolCalls: [
        { id: `call_${index}_l`, name: 'lookup', arguments: { item: 'tea' } },
        { id: `call_${index}_c`, name: 'charge', arguments: { amount: 3 } },
      ],
    };
  if (rounds === 1)
    return {
      text: 'Charging the fee.',
      chunkSize,
      toolCalls: [{ id: `call_${index}_f`, name: 'charge', arguments: { amount: 1 } }],
    };
  return { text: `Done with ${turn} (reply ${index}).`, chunkSize };
}

function textOf(message: ChatMessage | undefined): string {
  if (message === undefined) return '';
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => ('text' in part ? part.text : '')).join('');
}

/** The session the children of a world use: files in its directory, or its store's (prefixed). */
async function worldSession(dir: string, store: WorldStore | undefined): Promise<WorldSession> {
  if (store === undefined) return new JsonFileSession(join(dir, 'sessions'));
  const module = (await import(pathToFileURL(store.module).href)) as {
    openSession(options: string, prefix: string): WorldSession;
  };
  return module.openSession(store.options, basename(dir));
}

/** The checkpoint the world's session holds under the run's key (its segments joined). */
export async function savedRun(world: CrashWorld): Promise<Checkpoint | undefined> {
  const session = await worldSession(world.dir, world.store);
  try {
    return await loadCheckpoint(session, 'run');
  } finally {
    await session.close?.();
  }
}

/** The keys of the world's session holding an unfinished call. */
export async function unfinishedIn(world: CrashWorld): Promise<string[]> {
  const session = await worldSession(world.dir, world.store);
  try {
    return await unfinishedRuns(session);
  } finally {
    await session.close?.();
  }
}

export async function crashWorld(turns: number, store?: WorldStore): Promise<CrashWorld> {
  const server = await startStrictOpenAIServer({
    script: Array.from({ length: 5000 }, () => shopReply),
  });
  const dir = await mkdtemp(join(tmpdir(), 'rxagent-durable-'));
  const ledger = join(dir, 'ledger.txt');
  const run = async (options: { killAt?: string; raceDir?: string } = {}): Promise<ChildRun> => {
    const { killed, lines } = await runTsToEnd(childFile, {
      BASE_URL: server.baseURL,
      SESSION_DIR: join(dir, 'sessions'),
      LEDGER: ledger,
      TURNS: String(turns),
      KILL_AT: options.killAt ?? '',
      RACE_DIR: options.raceDir ?? '',
      STORE_MODULE: store?.module ?? '',
      STORE_OPTIONS: store?.options ?? '',
      STORE_PREFIX: basename(dir),
    });
    return { killed, lines };
  };
  return {
    server,
    dir,
    ledger,
    store,
    run,
    async close() {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** What the ledger says: how many times each tool call id ran, by tool. */
export async function ledgerCounts(ledger: string): Promise<Map<string, number>> {
  const text = await readFile(ledger, 'utf8').catch(() => '');
  const counts = new Map<string, number>();
  for (const line of text.split('\n').filter((l) => l !== '')) {
    counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  return counts;
}

/**
 * The problems of a finished conversation, empty when it is right: every request accepted
 * by the strict server, no reply that a later request carried (so it was stored) requested
 * a second time, and each `charge` call id run at most once.
 */
export async function conversationProblems(world: CrashWorld): Promise<string[]> {
  const problems: string[] = [];
  const { requests } = world.server;
  for (const rejected of world.server.rejected) problems.push(`rejected: ${rejected.rejection}`);
  const keys = requests.map((r) => JSON.stringify((r.body['messages'] as JsonObject[]) ?? []));
  const histories = keys.join('\n');
  keys.forEach((key, i) => {
    const again = keys.indexOf(key, i + 1);
    if (again === -1) return;
    // Request i's reply is marked by its index; was it ever sent back (stored)?
    if (histories.includes(`call_${i}_`) || histories.includes(`(reply ${i})`))
      problems.push(`request ${i} was sent again as request ${again} after its reply was stored`);
  });
  problems.push(...(await replyProblems(world)));
  for (const [line, count] of await ledgerCounts(world.ledger)) {
    if (line.startsWith('charge ') && count > 1) problems.push(`${line} ran ${count} times`);
  }
  return problems;
}

/** Each user turn of the stored conversation must have exactly one final (tool-less) reply. */
async function replyProblems(world: CrashWorld): Promise<string[]> {
  const saved = await savedRun(world);
  const state = saved?.state as unknown as { memory: { messages: Msg[] } } | undefined;
  if (state === undefined) return ['no checkpoint was saved'];
  const replies = new Map<string, number>();
  let turn = '';
  for (const msg of state.memory.messages) {
    if (msg.role === 'user' && msg.name === 'user') turn = msgText(msg);
    replies.set(turn, replies.get(turn) ?? 0);
    const final = msg.role === 'assistant' && toolUses(msg).length === 0;
    if (final && msg.metadata['partial'] !== true) replies.set(turn, replies.get(turn)! + 1);
  }
  return [...replies]
    .filter(([, count]) => count !== 1)
    .map(([name, count]) => `${name} has ${count} final replies`);
}
