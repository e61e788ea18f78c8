import { InvalidArgumentError, Toolkit, tool, userMsg } from '@rxagent/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harness, run, wireMessages } from './harness.js';

function logTool(maxResultChars?: number) {
  return tool({
    name: 'read_log',
    description: 'Reads the build log.',
    parameters: z.object({}),
    execute: () => `START ${'.'.repeat(989)} END!`,
    ...(maxResultChars !== undefined && { maxResultChars }),
  });
}

describe('ReActAgent tool-result truncation', () => {
  it('cuts a long result after postActing hooks saw it whole, and marks the stored Msg', async () => {
    const { server, agent } = await harness(
      [{ toolCalls: [{ id: 'c1', name: 'read_log', arguments: {} }] }, 'Done.'],
      { toolkit: new Toolkit([logTool(100)]) },
    );
    const seen: number[] = [];
    agent.addHook({
      onEvent: (event) => {
        if (event.type !== 'postActing') return;
        seen.push(String(event.result.output).length);
        event.metadata = { ...event.metadata, redactions: 2 };
      },
    });
    await run(agent, userMsg('Read the log'));
    expect(seen).toEqual([1_000]);
    const sent = wireMessages(server, 1).find((m) => m.role === 'tool')!;
    const text = String(sent.content);
    expect(text.length).toBeLessThanOrEqual(100);
    expect(text).toMatch(/^START /);
    expect(text).toMatch(/END!$/);
    expect(text).toMatch(/\[… \d+ characters truncated …\]/);
    const stored = agent.memory.messages().find((m) => m.role === 'tool')!;
    expect(stored.metadata).toEqual({ truncated: { originalChars: 1_000 }, redactions: 2 });
  });

  it("uses the toolkit's limit for tools without their own, keeping resultKind", async () => {
    const { server, agent } = await harness(
      [
        {
          toolCalls: [
            { id: 'c1', name: 'read_log', arguments: {} },
            { id: 'c2', name: 'read_log', arguments: {} },
          ],
        },
        'Done.',
      ],
      { toolkit: new Toolkit([logTool()], { maxResultChars: 200 }) },
    );
    await run(agent, userMsg('Read it twice'));
    const sent = wireMessages(server, 1).filter((m) => m.role === 'tool');
    expect(String(sent[0]!.content).length).toBeLessThanOrEqual(200);
    const stored = agent.memory.messages().filter((m) => m.role === 'tool');
    expect(stored[0]!.metadata).toEqual({ truncated: { originalChars: 1_000 } });
    // The duplicate's answer quotes the first result, so it is cut too.
    expect(stored[1]!.metadata).toEqual({
      resultKind: 'duplicate',
      truncated: { originalChars: expect.any(Number) },
    });
  });

  it('leaves a result within the limit as it is, with no metadata', async () => {
    const { agent } = await harness(
      [{ toolCalls: [{ id: 'c1', name: 'read_log', arguments: {} }] }, 'Done.'],
      { toolkit: new Toolkit([logTool()]) },
    );
    await run(agent, userMsg('Read the log'));
    const stored = agent.memory.messages().find((m) => m.role === 'tool')!;
    expect(stored.metadata).toEqual({});
  });
});

describe('ReActAgent maxInputChars', () => {
  it('fails the call before storing or sending an input longer than the limit', async () => {
    const { server, agent } = await harness(['Hello.'], { maxInputChars: 100 });
    await run(agent, userMsg('x'.repeat(100)));
    const before = agent.memory.messages().map((m) => m.id);
    const error = await run(agent, userMsg('x'.repeat(101))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(/101 characters, more than maxInputChars 100/);
    expect(agent.memory.messages().map((m) => m.id)).toEqual(before);
    expect(server.requests).toHaveLength(1);
  });

  it('accepts a million characters by default and rejects more', async () => {
    const { agent } = await harness([]);
    const error = await run(agent, userMsg('x'.repeat(1_000_001))).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/more than maxInputChars 1000000/);
    expect(agent.memory.messages()).toEqual([]);
  });

  it('rejects a bad maxInputChars when the agent is made', async () => {
    await expect(harness([], { maxInputChars: 0 })).rejects.toThrow(
      /maxInputChars must be a positive whole number/,
    );
  });
});
