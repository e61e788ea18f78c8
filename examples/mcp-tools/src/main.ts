/**
 * mcp-tools: an agent using the tools of a Model Context Protocol server. The reference
 * server `@modelcontextprotocol/server-everything` is spawned over stdio; its tools (echo,
 * get-sum, get-tiny-image, ...) become rxagent tools, validated against the server's JSON
 * Schemas before each call.
 *
 *   npx -y pnpm@10.34.9 --filter @rxagent/example-mcp-tools start
 *
 * Offline (default) a scripted model plays the conversation (the tool really runs on the
 * server); with OPENAI_API_KEY or OPENAI_BASE_URL set, a real model chooses the tools. Set
 * MCP_SERVER_URL to use a streamable-HTTP MCP server instead of the reference one.
 */
import { fileURLToPath } from 'node:url';
import { type Msg, Toolkit, userMsg } from '@rxagent/core';
import { chooseModel, type ExampleOptions, runMain } from '@rxagent/example-kit';
import { type McpServer, McpToolset } from '@rxagent/mcp';
import { ReActAgent } from '@rxagent/react-agent';
import { renderEvents } from '@rxagent/terminal';
import { filter, lastValueFrom, map } from 'rxjs';
import { mcpScript } from './script.js';

export const QUESTION = 'What is 1234 + 5678? Use the tools.';

/** The reference server, run with this Node (no npx, no network). */
export const EVERYTHING_SERVER: McpServer = {
  command: process.execPath,
  args: [
    fileURLToPath(import.meta.resolve('@modelcontextprotocol/server-everything/dist/index.js')),
    'stdio',
  ],
};

/** Options of `main`: the example options, and which MCP server to use. */
export interface MainOptions extends ExampleOptions {
  readonly server?: McpServer;
}

/** Connects to the server, runs one question, closes the server; resolves with the reply. */
export async function main(options: MainOptions = {}): Promise<Msg> {
  const out = options.out ?? process.stdout;
  const env = options.env ?? process.env;
  const { model, banner } = chooseModel(() => mcpScript(options.paceMs ?? 15), env);
  const url = env['MCP_SERVER_URL'];
  const server = options.server ?? (url ? { url } : EVERYTHING_SERVER);

  const mcp = await McpToolset.connect(server);
  try {
    out.write(`${banner}\nmcp: ${mcp.tools.length} tools from ${mcp.server}\n`);
    out.write(`     ${mcp.tools.map((tool) => tool.name).join(', ')}\n\nuser: ${QUESTION}\n`);
    const agent = new ReActAgent({
      name: 'assistant',
      sysPrompt:
        'You are a precise assistant. Use the MCP tools for arithmetic; never compute by hand.',
      model,
      toolkit: new Toolkit(mcp.tools),
    });
    return await lastValueFrom(
      agent.stream(userMsg(QUESTION)).pipe(
        renderEvents({ out }),
        filter((event) => event.type === 'reply'),
        map((event) => event.msg),
      ),
    );
  } finally {
    // Ends the server's child process; an example that forgot this would never exit.
    await mcp.close();
  }
}

runMain(import.meta.url, main);
