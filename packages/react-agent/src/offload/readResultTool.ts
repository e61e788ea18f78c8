import { type Tool, tool } from '@rxagent/core';
import { z } from 'zod';
import { READ_RESULT_TOOL, type ResultOffload } from './resultOffload.js';

/**
 * The `read_result({ handle, offset?, length? })` tool of an agent with `offload`: returns
 * exactly `text.slice(offset, offset + length)` of an offloaded result (`offset` default 0,
 * `length` default and at most `overChars`); an unknown handle or a bad range is an error
 * result naming what was wrong. Its own results are never offloaded nor truncated.
 */
export function readResultTool(offload: ResultOffload): Tool {
  const page = offload.overChars;
  return tool({
    name: READ_RESULT_TOOL,
    description: `Reads part of a tool result that was too long to show whole (offloaded): the characters from offset (default 0), at most length (default and at most ${page}). The notice after the shown part names the handle and where to go on.`,
    parameters: z.object({
      handle: z.string().min(1).describe('The handle from the offload notice.'),
      offset: z.number().int().min(0).optional().describe('The first character to read (0-based).'),
      length: z
        .number()
        .int()
        .min(1)
        .max(page)
        .optional()
        .describe(`How many characters to read (at most ${page}).`),
    }),
    dedupe: false,
    maxResultChars: Number.POSITIVE_INFINITY,
    execute: ({ handle, offset, length }) => offload.read(handle, offset, length),
  }) as unknown as Tool;
}
