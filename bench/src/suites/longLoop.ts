import type { ChatChunk, ChatModel, ChatRequest } from '@rxagent/core';
import { Toolkit, tool } from '@rxagent/core';
import { ReActAgent } from '@rxagent/react-agent';
import { from } from 'rxjs';
import { z } from 'zod';
import type { BenchConfig } from '../lib/config.js';
import { atMost, row, type SuiteResult } from '../lib/result.js';

/** Tool rounds of the one long call. */
const ROUNDS = 1000;

/**
 * A model that answers at once, in the caller's frame (as a cache or a replayed cassette
 * does): a `ping` call while fewer than `ROUNDS` results are in the request, then an answer.
 */
const syncModel: ChatModel = {
  modelName: 'sync-model',
  stream: (request: ChatRequest) => {
    const done = request.messages.filter((message) => message.role === 'tool').length;
    const chunks: ChatChunk[] =
      done < ROUNDS
        ? [
            { toolCalls: [{ index: 0, id: `c${done}`, name: 'ping', arguments: `{"i":${done}}` }] },
            { finishReason: 'tool_calls' },
          ]
        : [{ text: 'All rounds done.' }, { finishReason: 'stop' }];
    return from(chunks);
  },
};

const ping = tool({
  name: 'ping',
  description: 'Answers pong.',
  parameters: z.object({ i: z.number() }),
  execute: ({ i }) => `pong ${i}`,
});

/** One call of `ROUNDS` synchronous tool rounds; its wall time in seconds. */
async function longCall(): Promise<number> {
  const agent = new ReActAgent({
    name: 'looper',
    sysPrompt: 'You ping.',
    model: syncModel,
    toolkit: new Toolkit([ping]),
    maxIters: ROUNDS + 1,
  });
  const t0 = performance.now();
  const reply = await agent.reply('Ping a thousand times.', {
    signal: new AbortController().signal,
  });
  const seconds = (performance.now() - t0) / 1000;
  if (reply.metadata['generateReason'] !== 'stop') throw new Error('the long call did not finish');
  return seconds;
}

/**
 * Suite: one call of 1,000 tool rounds on a model and a tool that answer synchronously,
 * with a caller's signal: the loop's cost per step is flat (no stack growth, no listener per
 * step), so it replies within seconds.
 */
export async function longLoop(config: BenchConfig): Promise<SuiteResult> {
  const runs = config.quick ? 1 : 3;
  const seconds: number[] = [];
  for (let i = 0; i < runs; i++) seconds.push(await longCall());
  const worst = Math.max(...seconds);
  return {
    id: 'longLoop',
    title: `One call of ${ROUNDS.toLocaleString('en-US')} synchronous tool rounds`,
    rows: [
      row('seconds per call', 's', seconds),
      row(
        'ms per round',
        'ms',
        seconds.map((s) => (1000 * s) / ROUNDS),
      ),
    ],
    budgets: [atMost(`${ROUNDS} synchronous rounds reply within 10 s`, worst, 10, 's')],
    details: { seconds },
  };
}
