// A worker process of the workers suite: an AgentWorker serving <queue> whose agents answer
// every call at once (one scripted reply, no tool), or, with "slow", after a tool that waits
// 500 ms (for the recovery time). Prints "ready" once serving; prints "tool <pid>" when the
// slow tool starts; stops on SIGTERM.
// Usage: node --import tsx --import ./src/build/register.mjs src/suites/workerPeer.ts <url> <queue> [slow]
import { AgentHost, Toolkit, tool } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { AgentWorker, RedisSession } from '@rxagent/redis';
import { z } from 'zod';

const [url = '', queue = '', mode = ''] = process.argv.slice(2);
const slow = mode === 'slow';
const wait = tool({
  name: 'wait',
  description: 'Waits half a second.',
  parameters: z.object({}),
  execute: async () => {
    console.log(`tool ${process.pid}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    return 'waited';
  },
});
const host = new AgentHost({
  create: () =>
    new ReActAgent({
      name: 'assistant',
      sysPrompt: 'Answer.',
      model: new ScriptedChatModel(
        Array.from({ length: 10_000 }, () =>
          slow
            ? (r) =>
                r.messages.at(-1)?.role === 'tool'
                  ? 'done'
                  : { toolCalls: [{ name: 'wait', arguments: {} }] }
            : 'ok',
        ),
        { strict: false },
      ),
      toolkit: new Toolkit(slow ? [wait] : []),
    }),
  session: new RedisSession({ url, prefix: `${queue}:s:` }),
});
const worker = new AgentWorker({ url, queue, host, claimAfterMs: 2_000, concurrency: 64 });
await worker.start();
console.log('ready');
process.on('SIGTERM', () => void worker.stop().then(() => process.exit(0)));
