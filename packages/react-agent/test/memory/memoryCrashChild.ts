// SqliteStore by a relative import: this package does not depend on @rxagent/sqlite (whose
// tests depend on it), so the workspace has no cycle.
// One process of a durable agent with long-term memory on SQLite files. `KILL_AT=put` makes
// it SIGKILL itself when the first fact is about to be written (after its reply was printed);
// `MODE=recover` only recovers (writing what the killed process left pending).
import { writeSync } from 'node:fs';
import type { MemoryStore } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { LongTermMemory } from '@rxagent/memory';
import { OpenAIChatModel, ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { SqliteSession, SqliteStore } from '../../../sqlite/src/index.js';

const env = (name: string): string => process.env[name] ?? '';
const print = (line: string): void => {
  // Synchronous: a line printed before a SIGKILL must reach the parent.
  writeSync(1, `${line}\n`);
};

const sqlite = new SqliteStore({ path: env('STORE_PATH') });
const store: MemoryStore = {
  get: (ns, key) => sqlite.get(ns, key),
  search: (ns, options) => sqlite.search(ns, options),
  delete: (ns, key) => sqlite.delete(ns, key),
  list: (ns) => sqlite.list(ns),
  put(ns, key, value, options) {
    if (env('KILL_AT') === 'put') {
      print('killing before the write');
      process.kill(process.pid, 'SIGKILL');
    }
    return sqlite.put(ns, key, value, options);
  },
};
const memory = new LongTermMemory({
  store,
  namespace: (ctx) => ['users', String(ctx?.['userId'])],
  observer: {
    model: new ScriptedChatModel([
      {
        toolCalls: [
          { name: 'save_facts', arguments: { facts: ['Alice moves to Berlin in May.'] } },
        ],
      },
    ]),
  },
});
const session = new SqliteSession({ path: env('SESSION_PATH') });
const agent = new ReActAgent({
  name: 'desk',
  sysPrompt: 'You are a support desk.',
  model: new OpenAIChatModel({
    model: 'test-model',
    baseURL: env('BASE_URL'),
    apiKey: 'k',
    maxRetries: 0,
  }),
  durable: { session, key: 'alice' },
  longTermMemory: memory,
  longTermMemoryMode: 'static',
});

try {
  if (env('MODE') === 'recover') {
    await lastValueFrom(agent.recover(), { defaultValue: undefined });
  } else {
    await new Promise<void>((resolve, reject) =>
      agent.call('I move to Berlin in May', { callContext: { userId: 'alice' } }).subscribe({
        next: (reply) => print(`reply ${JSON.stringify(reply.content)}`),
        complete: resolve,
        error: reject,
      }),
    );
  }
  await memory.settled();
  print('done');
} finally {
  session.close();
  sqlite.close();
}
