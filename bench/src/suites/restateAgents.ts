import { type ChatRequest, Toolkit, tool } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { z } from 'zod';

const noop = tool({
  name: 'noop',
  description: 'Does nothing (not idempotent, so its runs are marked started).',
  parameters: z.object({ n: z.number() }),
  execute: async ({ n }) => `done ${n}`,
});

/**
 * An agent that calls `noop` `rounds` times, one tool round per reasoning step, then
 * answers `ok`; its scripted model answers at once, from the request (a new agent per
 * invocation on Restate, so the script cannot count).
 */
export function benchAgent(rounds: number): ReActAgent {
  const turn = (request: ChatRequest) => {
    let since = 0;
    for (let i = request.messages.length - 1; i >= 0 && request.messages[i]?.role !== 'user'; i--)
      if (request.messages[i]?.role === 'tool') since += 1;
    return since < rounds ? { toolCalls: [{ name: 'noop', arguments: { n: since } }] } : 'ok';
  };
  return new ReActAgent({
    name: 'bench',
    sysPrompt: 'Answer.',
    model: new ScriptedChatModel(
      Array.from({ length: rounds + 1 }, () => turn),
      { strict: false },
    ),
    toolkit: new Toolkit([noop]),
  });
}
