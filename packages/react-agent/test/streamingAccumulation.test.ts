import { userMsg } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { type CharacterWork, countCharacterWork } from './fixtures/characterWork.js';

/*
 * Linearity is checked by counting work, not by timing it: the characters that builtins copy
 * or scan during one call (see countCharacterWork) are the same on every run and every
 * machine, so these tests cannot flake on a busy one. Accumulating by re-copying or
 * re-scanning the reply so far at each chunk makes that count grow with the square of the
 * reply: 2 × the chunks would give 4 × the work, and 10,000 chunks of 100 characters ~5,000 ×
 * the reply's length. The wall and CPU time of the same calls is the bench's `streaming`
 * suite (BENCHMARKS.md), where a ratio is measured, not asserted in a unit test.
 */

/** The work of one call whose reply is `chunks` chunks of 100 characters, with a chunk hook. */
async function replyWork(chunks: number): Promise<CharacterWork> {
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
  const { value: reply, work } = await countCharacterWork(() =>
    lastValueFrom(agent.call(userMsg('stream'))),
  );
  expect(reply.content[0]).toEqual({ type: 'text', text });
  expect(seen).toBeGreaterThanOrEqual(chunks);
  return work;
}

/**
 * The work of one call whose reply is one tool call with `fragments` argument fragments of
 * 16 characters, with a chunk hook reading the accumulated tool_use block.
 */
async function toolCallWork(fragments: number): Promise<CharacterWork> {
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
  const { work } = await countCharacterWork(() => lastValueFrom(agent.call(userMsg('call'))));
  expect(complete).toBe(1);
  return work;
}

describe('ReActAgent streaming accumulation', () => {
  it('accumulates a 1 MB reply in 10,000 chunks with work linear in its length', async () => {
    await replyWork(100); // first-call work (lazy setup) is not the accumulation's
    const one = await replyWork(10_000);
    const two = await replyWork(20_000);
    // A few passes over the reply (the hook's and the reply's), not one per chunk.
    expect(one.total).toBeLessThan(10 * 1_000_000);
    expect(two.total).toBeLessThan(10 * 2_000_000);
    // Linear work doubles; quadratic work would quadruple.
    expect(two.total / one.total).toBeLessThan(2.5);
  });

  it('tracks a streamed tool call of 10,000 argument fragments with work linear in its length', async () => {
    await toolCallWork(100);
    const one = await toolCallWork(10_000);
    const two = await toolCallWork(20_000);
    // The arguments are scanned once as they arrive and parsed once when complete.
    expect(one.total).toBeLessThan(20 * 160_000);
    expect(two.total).toBeLessThan(20 * 320_000);
    expect(two.total / one.total).toBeLessThan(2.5);
  });
});
