import { Toolkit, tool } from '@rxagent/core';
import type { ScriptedReply } from '@rxagent/core/testing';
import { lastToolOutput } from '@rxagent/example-kit';
import { z } from 'zod';

/** The one conversation of the example. */
export const THREAD = 'trip-42';
export const QUESTION = 'Is the 9:40 train to Porto on Friday still bookable?';
export const SYSTEM_PROMPT =
  'You are a travel desk. Check availability with the tool before answering; answer in one sentence.';

/**
 * The availability check: slow (a second), and safe to run twice (it only reads), so a
 * worker that takes over a run may simply run it again. It tells its process on stdout when
 * it starts, which is when the example kills the worker running it.
 */
export function tripToolkit(): Toolkit {
  return new Toolkit([
    tool({
      name: 'check_availability',
      description: 'Checks how many seats are left on a train.',
      parameters: z.object({ train: z.string().describe('e.g. "Friday 9:40 Lisbon–Porto"') }),
      execute: async ({ train }, { signal }) => {
        console.log(`tool started in ${process.pid}`);
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, 1_000);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(signal.reason);
          });
        });
        return `${train}: 12 seats left (checked by worker ${process.pid})`;
      },
    }),
  ]);
}

/** The offline script: check, then answer from what the tool said. */
export function tripScript(): ScriptedReply[] {
  return [
    {
      toolCalls: [{ name: 'check_availability', arguments: { train: 'Friday 9:40 Lisbon–Porto' } }],
    },
    (request) =>
      `Yes: ${lastToolOutput(request, 'check_availability') ?? 'no answer from the check'}.`,
  ];
}
