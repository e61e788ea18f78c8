/**
 * mcp-server: an rxagent agent as an MCP tool. The MCP SDK's own client spawns
 * `src/server.ts` over stdio, lists its tools (the agent is one tool, `researcher`), and
 * calls it with progress: the answer streams in as progress notifications, then arrives as
 * the tool's result.
 *
 *   npx -y pnpm@10.34.9 --filter @rxagent/example-mcp-server start
 *
 * Offline (default) a scripted model answers; with OPENAI_API_KEY or OPENAI_BASE_URL set, a
 * real model does (those variables are passed to the server process).
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { type ExampleOptions, liveModelConfigured, runMain } from '@rxagent/example-kit';

export const QUESTION = 'Why is the sky blue?';

/** What the client saw: the tools listed, the progress chunks, and the result text. */
export interface McpRun {
  readonly tools: string[];
  readonly progress: string[];
  readonly answer: string;
}

export async function main(options: ExampleOptions = {}): Promise<McpRun> {
  const out = options.out ?? process.stdout;
  const env = options.env ?? process.env;
  const passed = Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] =>
        entry[0].startsWith('OPENAI_') && entry[1] !== undefined,
    ),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      '--import',
      'tsx',
      '--conditions=@rxagent/source',
      fileURLToPath(new URL('./server.ts', import.meta.url)),
    ],
    env: { ...getDefaultEnvironment(), ...passed },
  });
  const client = new Client({ name: 'example-client', version: '1.0.0' });
  await client.connect(transport);
  try {
    out.write(`mode: ${liveModelConfigured(env) ? 'live' : 'offline'}\n`);
    const { tools } = await client.listTools();
    out.write(`tools: ${tools.map((tool) => `${tool.name} — ${tool.description}`).join('; ')}\n\n`);
    out.write(`call researcher: ${QUESTION}\nprogress: `);
    const progress: string[] = [];
    const result = await client.callTool(
      { name: 'researcher', arguments: { request: QUESTION } },
      undefined,
      {
        onprogress: ({ message }) => {
          if (message === undefined) return;
          progress.push(message);
          out.write(message);
        },
      },
    );
    const content = Array.isArray(result.content) ? result.content : [];
    const answer = content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    out.write(`\n\nresult: ${answer}\n`);
    return { tools: tools.map((tool) => tool.name), progress, answer };
  } finally {
    await client.close();
  }
}

runMain(import.meta.url, main);
