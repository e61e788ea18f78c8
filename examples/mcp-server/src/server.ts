/**
 * The MCP server process: a research agent offered as one MCP tool (`researcher`, parameter
 * `request`) over stdio by `mcpServer` from `@rxagent/mcp`. Any MCP client can spawn it:
 *
 *   npx tsx --conditions=@rxagent/source src/server.ts
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ScriptedReply } from '@rxagent/core/testing';
import { chooseModel, isEntryPoint } from '@rxagent/example-kit';
import { mcpServer } from '@rxagent/mcp';
import { ReActAgent } from '@rxagent/react-agent';

/** What the research agent answers offline, streamed word by word. */
export function researchScript(): ScriptedReply[] {
  return [
    {
      text: 'The sky looks blue because air molecules scatter short (blue) wavelengths of sunlight far more than long (red) ones: Rayleigh scattering.',
      chunkDelayMs: 5,
    },
  ];
}

/** The research agent. */
export function researcher(env: NodeJS.ProcessEnv = process.env): ReActAgent {
  return new ReActAgent({
    name: 'researcher',
    description: 'Researches a question and answers it in a few sentences.',
    sysPrompt: 'You are a careful researcher. Answer in two sentences.',
    model: chooseModel(researchScript, env).model,
  });
}

if (isEntryPoint(import.meta.url)) {
  // stdout is the MCP channel: the server prints nothing else.
  await mcpServer(researcher(), { name: 'rxagent-research' }).connect(new StdioServerTransport());
}
