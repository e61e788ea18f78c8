/**
 * One worker of the pool: `workerProcess.ts <redisUrl> <queue>`. Serves the queue with an
 * AgentHost whose threads are saved in Redis — or in PostgreSQL when `DATABASE_URL` is set —
 * so any worker can take any thread. Prints "ready" once it serves the queue; stops
 * gracefully on SIGTERM.
 */
import { AgentHost } from '@rxagent/core';
import { chooseModel } from '@rxagent/example-kit';
import { PostgresSession } from '@rxagent/postgres';
import { ReActAgent } from '@rxagent/react-agent';
import { AgentWorker, RedisSession } from '@rxagent/redis';
import { SYSTEM_PROMPT, tripScript, tripToolkit } from './tripAgent.js';
import { threadSchema } from './workerPool.js';

const [url = '', queue = ''] = process.argv.slice(2);
const databaseUrl = process.env['DATABASE_URL'];
const session = databaseUrl
  ? new PostgresSession({ connectionString: databaseUrl, schema: threadSchema(queue) })
  : new RedisSession({ url, prefix: `${queue}:threads:` });
const host = new AgentHost({
  create: () =>
    new ReActAgent({
      name: 'travel-desk',
      sysPrompt: SYSTEM_PROMPT,
      model: chooseModel(tripScript).model,
      toolkit: tripToolkit(),
    }),
  session,
});
const worker = new AgentWorker({ url, queue, host, claimAfterMs: 2_000 });
await worker.start();
console.log('ready');
process.on('SIGTERM', () => {
  void worker
    .stop()
    .then(() => session.close())
    .then(() => process.exit(0));
});
