import { userMsg } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';

/**
 * CPU milliseconds of this process to run one call whose reply is `chunks` chunks of 100
 * characters, with a chunk hook. CPU time rather than wall time, so other processes on a busy
 * machine (parallel test files) do not skew the ratio.
 */
async function timeReply(chunks: number): Promise<number> {
  const text = 'x'.repeat(100 * chunks);
  const agent = new ReActAgent({
    name: 'streamer',
    sysPrompt: '',
    model: new ScriptedChatModel([{ text, chunkSize: 100 }]),
  });
  let seen = 0;
  agent.addHook({
    onEvent: (event) => {
      if (event.type === 'reasoningChunk') seen += event.accumulated.content.length;
    },
  });
  const t0 = process.cpuUsage();
  const reply = await lastValueFrom(agent.call(userMsg('stream')));
  const used = process.cpuUsage(t0);
  const elapsed = (used.user + used.system) / 1000;
  expect(reply.content[0]).toEqual({ type: 'text', text });
  expect(seen).toBeGreaterThanOrEqual(chunks);
  return elapsed;
}

/**
 * CPU milliseconds of one call whose reply is one tool call with `fragments` argument
 * fragments of 16 characters, with a chunk hook reading the accumulated tool_use block.
 */
async function timeToolCall(fragments: number): Promise<number> {
  const note = 'y'.repeat(16 * fragments - 12);
  const agent = new ReActAgent({
    name: 'streamer',
    sysPrompt: '',
    model: new ScriptedChatModel([
      { toolCalls: [{ id: 'c', name: 'nowhere', arguments: { note } }] },
      'Done.',
    ]),
  });
  let complete = 0;
  agent.addHook({
    onEvent: (event) => {
      if (event.type !== 'reasoningChunk') return;
      const block = event.accumulated.content.at(-1);
      if (block?.type === 'tool_use' && block.input['note'] !== undefined) complete++;
    },
  });
  const t0 = process.cpuUsage();
  await lastValueFrom(agent.call(userMsg('call')));
  const used = process.cpuUsage(t0);
  expect(complete).toBe(1);
  return (used.user + used.system) / 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

describe('ReActAgent streaming accumulation', () => {
  it('accumulates a 1 MB reply in 10,000 chunks in time linear in its length', async () => {
    await timeReply(2_000); // warm up the JIT
    const one: number[] = [];
    const two: number[] = [];
    for (let round = 0; round < 5; round++) {
      one.push(await timeReply(10_000));
      two.push(await timeReply(20_000));
    }
    // Linear work doubles; quadratic work would quadruple. 3 leaves room for GC noise.
    expect(median(two) / median(one)).toBeLessThan(3);
  });

  it('tracks a streamed tool call of 10,000 argument fragments in time linear in its length', async () => {
    await timeToolCall(2_000);
    const one: number[] = [];
    const two: number[] = [];
    for (let round = 0; round < 5; round++) {
      one.push(await timeToolCall(10_000));
      two.push(await timeToolCall(20_000));
    }
    expect(median(two) / median(one)).toBeLessThan(3);
  });
});
