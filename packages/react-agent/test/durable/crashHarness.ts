import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
import { PostgresSession } from '@rxagent/postgres';
import { RedisSession } from '@rxagent/redis';
import { SqliteSession } from '@rxagent/sqlite';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const childFile = fileURLToPath(new URL('./crashChild.ts', import.meta.url));

/** How one child process ended. */
export interface ChildRun {
  readonly killed: boolean;
  readonly lines: readonly string[];
}

/** A durable conversation run across processes: a strict server, a session dir, a ledger. */
export interface CrashWorld {
  readonly server: StrictOpenAIServer;
  readonly dir: string;
  readonly ledger: string;
  readonly redisUrl: string | undefined;
  /** The SQLite file the children share, when the world runs on SQLite. */
  readonly sqlitePath: string | undefined;
  readonly postgresUrl: string | undefined;
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

/** The session the children of a world use: files in its directory, a Redis prefix, SQLite or a Postgres schema. */
function worldSession(
  world: Pick<CrashWorld, 'dir' | 'redisUrl' | 'sqlitePath' | 'postgresUrl'>,
): VersionedSession {
  const { dir, redisUrl, sqlitePath, postgresUrl } = world;
  if (sqlitePath) return new SqliteSession({ path: sqlitePath });
  if (postgresUrl)
    return new PostgresSession({ connectionString: postgresUrl, schema: schemaOf(dir) });
  return redisUrl
    ? new RedisSession({ url: redisUrl, prefix: `${basename(dir)}:` })
    : new JsonFileSession(join(dir, 'sessions'));
}

/** The Postgres schema of a world: its directory's name as an identifier. */
function schemaOf(dir: string): string {
  return `w_${basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '_')}`;
}

async function closeSession(session: VersionedSession): Promise<void> {
  if (
    session instanceof RedisSession ||
    session instanceof SqliteSession ||
    session instanceof PostgresSession
  )
    await session.close();
}

/** The checkpoint the world's session holds under the run's key (its segments joined). */
export async function savedRun(world: CrashWorld): Promise<Checkpoint | undefined> {
  const session = worldSession(world);
  try {
    return await loadCheckpoint(session, 'run');
  } finally {
    await closeSession(session);
  }
}

/** The keys of the world's session holding an unfinished call. */
export async function unfinishedIn(world: CrashWorld): Promise<string[]> {
  const session = worldSession(world);
  try {
    return await unfinishedRuns(session);
  } finally {
    await closeSession(session);
  }
}

/**
 * A world of `turns` user turns on JSON files, or on Redis (`redisUrl`), or on a SQLite file
 * (`sqlite`), or in a schema of its own on PostgreSQL (`postgresUrl`).
 */
export async function crashWorld(
  turns: number,
  redisUrl?: string,
  options: { readonly sqlite?: boolean; readonly postgresUrl?: string } = {},
): Promise<CrashWorld> {
  const server = await startStrictOpenAIServer({
    script: Array.from({ length: 5000 }, () => shopReply),
  });
  const dir = await mkdtemp(join(tmpdir(), 'rxagent-durable-'));
  const ledger = join(dir, 'ledger.txt');
  const sqlitePath = options.sqlite ? join(dir, 'sessions.db') : undefined;
  const postgresUrl = options.postgresUrl;
  const run = (options: { killAt?: string; raceDir?: string } = {}): Promise<ChildRun> => {
    const child = spawn(
      process.execPath,
      ['--conditions=@rxagent/source', '--import', 'tsx', childFile],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          BASE_URL: server.baseURL,
          SESSION_DIR: join(dir, 'sessions'),
          LEDGER: ledger,
          TURNS: String(turns),
          KILL_AT: options.killAt ?? '',
          RACE_DIR: options.raceDir ?? '',
          REDIS_URL: redisUrl ?? '',
          REDIS_PREFIX: basename(dir),
          SQLITE_PATH: sqlitePath ?? '',
          POSTGRES_URL: postgresUrl ?? '',
          POSTGRES_SCHEMA: schemaOf(dir),
        },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (part: Buffer) => {
      stdout += part.toString();
    });
    child.stderr.on('data', (part: Buffer) => {
      stderr += part.toString();
    });
    return new Promise((resolve, reject) =>
      child.on('close', (code, signal) => {
        const lines = stdout.split('\n').filter((line) => line !== '');
        if (signal === 'SIGKILL') resolve({ killed: true, lines });
        else if (code === 0) resolve({ killed: false, lines });
        else reject(new Error(`child exited with ${String(code)}: ${stderr.slice(-3000)}`));
      }),
    );
  };
  return {
    server,
    dir,
    ledger,
    redisUrl,
    sqlitePath,
    postgresUrl,
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
