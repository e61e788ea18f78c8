import { lastValueFrom, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolResultBlock } from '../message/contentBlock.js';
import type { ToolEvent, ToolReturn } from './tool.js';
import { tool } from './tool.js';
import { toolErrorOf } from './toolErrorOf.js';
import { Toolkit } from './toolkit.js';

function run(execute: () => ToolReturn, input: unknown = {}): Promise<ToolResultBlock> {
  const toolkit = new Toolkit([
    tool({ name: 't', description: 'A tool.', parameters: z.object({}), execute }),
  ]);
  const signal = new AbortController().signal;
  return lastValueFrom(
    toolkit.execute({ id: 'c1', name: 't', input }, { signal, toolCallId: 'c1' }),
  ).then((event: ToolEvent) => (event as Extract<ToolEvent, { type: 'result' }>).result);
}

describe('toolErrorOf', () => {
  const boom = new RangeError('out of range');

  it.each([
    [
      'a throw',
      () => {
        throw boom;
      },
    ],
    ['a rejection', () => Promise.reject(boom)],
    ['an Observable error', () => throwError(() => boom)],
  ])('keeps the error of %s beside a readable, JSON result', async (_, execute) => {
    const result = await run(execute);
    expect(result).toEqual({
      type: 'tool_result',
      id: 'c1',
      name: 't',
      output: 'Tool "t" failed: out of range',
      isError: true,
    });
    expect(toolErrorOf(result)).toBe(boom);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
    // A copy of the block is a plain result: the error is not part of it.
    expect(toolErrorOf({ ...result })).toBeUndefined();
  });

  it('is undefined for a success and for an error result no throw made', async () => {
    expect(toolErrorOf(await run(() => 'ok'))).toBeUndefined();
    expect(toolErrorOf(await run(() => 'ok', 'not an object'))).toBeUndefined();
    expect(toolErrorOf(await run(() => undefined as never))).toBeUndefined();
  });
});
