import { getEventListeners } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  type ChatChunk,
  type ChatModel,
  type ChatRequest,
  type Msg,
  Toolkit,
  textOf,
  tool,
} from '@rxagent/core';
import {
  recordModel,
  replayModel,
  ScriptedChatModel,
  type ScriptedReply,
} from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { from } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

/** `rounds` tool rounds (each a distinct call, so none is deduplicated), then a final answer. */
function longScript(rounds: number): ScriptedReply[] {
  const script: ScriptedReply[] = [];
  for (let i = 0; i < rounds; i++)
    script.push({ toolCalls: [{ id: `c${i}`, name: 'ping', arguments: { i } }] });
  script.push('All rounds done.');
  return script;
}

/** An agent with one synchronous tool, `ping`, which calls `onRun` each time it runs. */
function pingAgent(model: ChatModel, rounds: number, onRun: () => void = () => {}): ReActAgent {
  const ping = tool({
    name: 'ping',
    description: 'Answers pong.',
    parameters: z.object({ i: z.number() }),
    execute: ({ i }) => {
      onRun();
      return `pong ${i}`;
    },
  });
  return new ReActAgent({
    name: 'looper',
    sysPrompt: 'You ping.',
    model,
    toolkit: new Toolkit([ping]),
    maxIters: rounds + 1,
  });
}

/** A model that records how many abort listeners each request's signal holds when it is made. */
function countingListeners(model: ChatModel, counts: number[]): ChatModel {
  return {
    modelName: model.modelName,
    stream: (request: ChatRequest) => {
      if (request.signal) counts.push(getEventListeners(request.signal, 'abort').length);
      return model.stream(request);
    },
  };
}

/**
 * A model that answers at once and keeps nothing (a ScriptedChatModel keeps every request):
 * `rounds` ping calls, then a final answer, counted by the tool results in the request.
 */
function forgetfulModel(rounds: number): ChatModel {
  return {
    modelName: 'forgetful',
    stream: (request: ChatRequest) => {
      const done = request.messages.filter((message) => message.role === 'tool').length;
      const chunks: ChatChunk[] =
        done < rounds
          ? [
              {
                toolCalls: [
                  {
                    index: 0,
                    id: `c${done}`,
                    name: 'ping',
                    arguments: JSON.stringify({ i: done }),
                  },
                ],
              },
              { finishReason: 'tool_calls' },
            ]
          : [{ text: 'All rounds done.' }, { finishReason: 'stop' }];
      return from(chunks);
    },
  };
}

/** Process warnings emitted while the test runs (they are emitted on a later tick). */
let warnings: Error[] = [];
const onWarning = (warning: Error): void => {
  warnings.push(warning);
};
beforeEach(() => {
  warnings = [];
  process.on('warning', onWarning);
});
afterEach(() => {
  process.off('warning', onWarning);
});
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('a ReActAgent over a model and tools that answer synchronously', () => {
  it('replies after 1,000 tool rounds, with no stack growth, no warning and no listener piling up on the caller signal', async () => {
    const rounds = 1000;
    const caller = new AbortController();
    const callerListeners: number[] = [];
    const requestListeners: number[] = [];
    const model = countingListeners(
      new ScriptedChatModel(longScript(rounds), { strict: false }),
      requestListeners,
    );
    const agent = pingAgent(model, rounds, () =>
      callerListeners.push(getEventListeners(caller.signal, 'abort').length),
    );
    const started = performance.now();
    const reply = await agent.reply('Ping a thousand times.', { signal: caller.signal });
    const elapsed = performance.now() - started;
    await settle();

    expect(textOf(reply)).toBe('All rounds done.');
    expect((reply.metadata['stats'] as { toolCalls: number }).toolCalls).toBe(rounds);
    // Seconds, not minutes (about 3 s on a busy 2-core machine; a hang never gets here).
    expect(elapsed).toBeLessThan(25_000);
    // The call holds one listener on the caller's signal, whatever the step.
    expect(new Set(callerListeners)).toEqual(new Set([1]));
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    // The call's own signal carries as many listeners at the last request as at the second.
    expect(requestListeners[rounds]).toBe(requestListeners[1]);
    expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
    expect(warnings).toEqual([]);
  }, 60_000);

  it('replays a recorded 300-round session to its reply', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rxagent-long-replay-'));
    try {
      const rounds = 300;
      const cassette = join(dir, 'long.cassette.jsonl');
      const recorded = pingAgent(
        recordModel(new ScriptedChatModel(longScript(rounds), { strict: false }), cassette),
        rounds,
      );
      expect(textOf(await recorded.reply('Ping.'))).toBe('All rounds done.');

      let runs = 0;
      const replayed = pingAgent(replayModel(cassette), rounds, () => runs++);
      const reply = await replayed.reply('Ping.');
      await settle();
      expect(textOf(reply)).toBe('All rounds done.');
      expect(runs).toBe(rounds);
      expect(warnings).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('keeps the heap flat over many calls: nothing of a finished call stays reachable', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const caller = new AbortController();
    const agent = pingAgent(forgetfulModel(5), 10);
    const calls = async (count: number): Promise<Msg> => {
      let last: Msg | undefined;
      for (let i = 0; i < count; i++) {
        last = await agent.reply(`Call ${i}.`, { signal: caller.signal });
        agent.memory.clear();
      }
      return last!;
    };
    const heap = async (): Promise<number> => {
      await settle();
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    await calls(100); // warm up: code compiled, pools filled
    const before = await heap();
    await calls(1000);
    const after = await heap();

    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    // 1,000 calls of 5 rounds each (a call's messages, closures and context weigh several KB):
    // what is left after GC is noise, under 2 KB per call.
    expect(after - before).toBeLessThan(2_000_000);
  }, 60_000);
});
