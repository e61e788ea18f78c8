import { appendFileSync } from 'node:fs';
import { type ChatRequest, Toolkit, tool } from '@rxagent/core';
import type { ScriptedReply, ScriptedTurn } from '@rxagent/core/testing';
import { chooseModel, lastToolOutput, wireText } from '@rxagent/example-kit';
import { ReActAgent } from '@rxagent/react-agent';
import { z } from 'zod';

/** The conversation of the example (the virtual object's key). */
export const KEY = 'guest-7';
export const REQUEST = 'Please book room 12 for Friday night.';
export const FOLLOW_UP = 'Did my booking go through?';
export const SYSTEM_PROMPT =
  'You are a hotel desk. Book rooms with the tool; when a booking result is unknown, say so and never book again on your own.';

/**
 * The booking tool: it has a side effect (not idempotent), takes two seconds, writes one
 * line per run to `ledger` (the example's side channel, to count runs across processes), and
 * tells its process on stdout when it starts, which is when the example kills the endpoint.
 */
export function deskToolkit(ledger: string): Toolkit {
  return new Toolkit([
    tool({
      name: 'book_room',
      description: 'Books a hotel room for a night.',
      parameters: z.object({ room: z.string(), night: z.string() }),
      execute: async ({ room, night }, { signal }) => {
        appendFileSync(ledger, `${room} ${night}\n`);
        console.log('tool started');
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, 2_000);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(signal.reason);
          });
        });
        return `room ${room} booked for ${night}`;
      },
    }),
  ]);
}

/**
 * The offline model's words, chosen from the request (the object makes a new agent per
 * invocation, so a script read in order would start over each time).
 */
function deskReply(request: ChatRequest): string | ScriptedTurn {
  const result = lastToolOutput(request, 'book_room');
  const last = request.messages.at(-1);
  if (last?.role === 'user' && wireText(last).includes('go through')) {
    return 'Its outcome is unknown: the desk stopped while booking. Please check with the hotel before booking again.';
  }
  if (result?.startsWith('[interrupted]'))
    return 'I could not confirm the booking of room 12: the desk stopped while it was being made.';
  if (result !== undefined) return `Done: ${result}.`;
  return { toolCalls: [{ name: 'book_room', arguments: { room: '12', night: 'Friday' } }] };
}

/** A desk agent for one invocation: the live model when the environment names one, else the script. */
export function deskAgent(ledger: string, env: NodeJS.ProcessEnv = process.env): ReActAgent {
  const script = (): ScriptedReply[] => Array.from({ length: 4 }, () => deskReply);
  return new ReActAgent({
    name: 'desk',
    sysPrompt: SYSTEM_PROMPT,
    model: chooseModel(script, env).model,
    toolkit: deskToolkit(ledger),
  });
}
