// One process of a durable conversation: it recovers what a killed predecessor left
// unfinished, then runs the remaining user turns. `KILL_AT=<point>:<n>` makes it SIGKILL
// itself the n-th time it reaches <point> (chunk, tool, result, save); `RACE_DIR` makes it
// wait, after loading the checkpoint, until a second process has loaded it too.
import { appendFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  JsonFileSession,
  type JsonObject,
  type SaveOptions,
  SessionConflictError,
  Toolkit,
  textOf,
  tool,
  type VersionedSession,
  type VersionedState,
} from '@rxagent/core';
import { PostgresSession } from '@rxagent/postgres';
import { OpenAIChatModel, ReActAgent } from '@rxagent/react-agent';
import { RedisSession } from '@rxagent/redis';
import { SqliteSession } from '@rxagent/sqlite';
import { lastValueFrom } from 'rxjs';
import { z } from 'zod';

const env = (name: string): string => process.env[name] ?? '';
const [point = '', nth = '0'] = env('KILL_AT').split(':');
const counts = new Map<string, number>();
const ledger = env('LEDGER');

/** SIGKILLs this process the `nth` time it reaches `here`. */
function maybeKill(here: string): void {
  const seen = (counts.get(here) ?? 0) + 1;
  counts.set(here, seen);
  if (here === point && seen === Number(nth)) process.kill(process.pid, 'SIGKILL');
}

/** A session that can die in the middle of a save, or wait for a racing process. */
class ChildSession implements VersionedSession {
  constructor(readonly inner: VersionedSession) {}
  save(key: string, state: JsonObject, options?: SaveOptions): Promise<void> {
    const saving = this.inner.save(key, state, options);
    // Dies while the save's file operations are in flight (before or after its rename).
    setImmediate(() => maybeKill('save'));
    return saving;
  }
  async loadVersioned(key: string): Promise<VersionedState | undefined> {
    const loaded = await this.inner.loadVersioned(key);
    const race = env('RACE_DIR');
    if (race) {
      writeFileSync(join(race, `loaded-${process.pid}`), '');
      while (readdirSync(race).filter((name) => name.startsWith('loaded-')).length < 2)
        await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return loaded;
  }
  load = (key: string) => this.inner.load(key);
  delete = (key: string) => this.inner.delete(key);
  list = () => this.inner.list();
}

const charge = tool({
  name: 'charge',
  description: 'Charges a card (not idempotent).',
  parameters: z.object({ amount: z.number() }),
  dedupe: false,
  execute: ({ amount }, { toolCallId }) => {
    appendFileSync(ledger, `charge ${toolCallId}\n`);
    maybeKill('tool');
    return `charged ${amount}`;
  },
});

const lookup = tool({
  name: 'lookup',
  description: 'Looks a price up (idempotent).',
  parameters: z.object({ item: z.string() }),
  idempotent: true,
  dedupe: false,
  execute: ({ item }, { toolCallId }) => {
    appendFileSync(ledger, `lookup ${toolCallId}\n`);
    maybeKill('tool');
    return `${item} costs 3`;
  },
});

const store = env('POSTGRES_URL')
  ? new PostgresSession({ connectionString: env('POSTGRES_URL'), schema: env('POSTGRES_SCHEMA') })
  : env('SQLITE_PATH')
    ? new SqliteSession({ path: env('SQLITE_PATH') })
    : env('REDIS_URL')
      ? new RedisSession({ url: env('REDIS_URL'), prefix: `${env('REDIS_PREFIX')}:` })
      : new JsonFileSession(env('SESSION_DIR'));
const session = new ChildSession(store);
const agent = new ReActAgent({
  name: 'shop',
  sysPrompt: 'You run a shop.',
  model: new OpenAIChatModel({
    model: 'test-model',
    baseURL: env('BASE_URL'),
    apiKey: 'test',
    maxRetries: 0,
  }),
  toolkit: new Toolkit([charge, lookup]),
  // Segments of 4 messages: a 3-turn conversation seals several, so kills hit their saves too.
  durable: { session, key: 'run', segmentSize: 4 },
  hooks: [
    {
      onEvent: (event) => {
        if (event.type === 'reasoningChunk') maybeKill('chunk');
        if (event.type === 'preReasoning' && event.messages.some((m) => m.role === 'tool'))
          maybeKill('result');
      },
    },
  ],
});

const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

try {
  const recovered = await lastValueFrom(agent.recover(), { defaultValue: undefined });
  if (recovered) print(`reply ${textOf(recovered)}`);
  const turns = Number(env('TURNS'));
  const asked = agent.memory.messages().filter((m) => m.role === 'user' && m.name === 'user');
  for (let turn = asked.length; turn < turns; turn++) {
    const reply = await agent.reply(`turn ${turn}`);
    print(`reply ${textOf(reply)}`);
  }
  print('done');
} catch (error) {
  if (error instanceof SessionConflictError) print('conflict');
  else throw error;
} finally {
  if (
    store instanceof RedisSession ||
    store instanceof SqliteSession ||
    store instanceof PostgresSession
  )
    await store.close();
}
