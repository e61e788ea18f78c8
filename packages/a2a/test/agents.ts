import { Toolkit, tool } from '@rxagent/core';
import { ScriptedChatModel, type ScriptedReply } from '@rxagent/core/testing';
import { ReActAgent } from '@rxagent/react-agent';
import { z } from 'zod';

/** A ReActAgent on a scripted model; `deleted` records the paths its approval-gated tool removed. */
export function opsAgent(
  script: ScriptedReply[],
  name = 'ops',
): ReActAgent & { deleted: string[] } {
  const deleted: string[] = [];
  const remove = tool({
    name: 'delete_file',
    description: 'Deletes a file.',
    parameters: z.object({ path: z.string() }),
    needsApproval: true,
    execute: ({ path }) => {
      deleted.push(path);
      return `deleted ${path}`;
    },
  });
  const agent = new ReActAgent({
    name,
    description: 'Looks after files.',
    sysPrompt: 'You look after files.',
    model: new ScriptedChatModel(script),
    toolkit: new Toolkit([remove]),
  });
  return Object.assign(agent, { deleted });
}
