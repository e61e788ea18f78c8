import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  AgentBase,
  type AgentSource,
  type AgentThreads,
  agentThreads,
  checkOptions,
  newId,
  sanitizeName,
  userMsg,
} from '@rxagent/core';
import { z } from 'zod';
import { runAgentTool, type ToolCallExtra } from './runAgentTool.js';

/** Options of `mcpServer`. */
export interface McpServeOptions {
  /** The MCP server's name in the handshake; also the tool's name when `source` is not an agent. */
  readonly name: string;
  /** The server's version in the handshake (default `"0.1.0"`). */
  readonly version?: string;
  /** The tool's name (default: the agent's name, or `name`, in the function-name charset). */
  readonly toolName?: string;
  /** What the client's model reads about the tool (default: the agent's description). */
  readonly description?: string;
  /** With an agent factory: contexts whose agent is kept (default 1000). */
  readonly maxContexts?: number;
  /**
   * After a cancellation, how long the interrupted call may take to end before it is
   * unsubscribed (default 10,000 ms).
   */
  readonly interruptGraceMs?: number;
}

const OPTION_KEYS = [
  'name',
  'version',
  'toolName',
  'description',
  'maxContexts',
  'interruptGraceMs',
];

/**
 * An MCP server (the official SDK's `McpServer`: `connect(transport)`, one per stdio
 * connection or HTTP session) that offers an rxagent agent to MCP clients as one tool, named
 * after the agent and described by its description, with one required string parameter
 * `request`. Calling it runs one call of the agent with the request as a user message and
 * returns the reply's text.
 *
 * - When the client asks for progress (`_meta.progressToken`), the reply's text goes out as
 *   it streams, one `notifications/progress` per chunk (the chunk is the notification's
 *   `message`).
 * - An MCP cancellation (`notifications/cancelled`, or the client's request signal) interrupts
 *   the agent, whose call ends with an interrupt reply; its conversation stays valid.
 * - A call that fails, is interrupted or stops for an approval (which MCP cannot give) is a
 *   result with `isError: true` whose text says why.
 * - `source` is one agent, a factory `(contextId) => agent` or an agent host (see
 *   `agentThreads`); the context is the MCP session id, or one id per server.
 *
 * @example
 * ```ts
 * // Over stdio: `await server.connect(new StdioServerTransport())`; over HTTP, one per session.
 * const server = mcpServer(agent, { name: 'research' });
 * ```
 */
export function mcpServer(source: AgentSource, options: McpServeOptions): McpServer {
  checkOptions(options, OPTION_KEYS, 'mcpServer');
  if (typeof options?.name !== 'string' || options.name === '')
    throw new TypeError('mcpServer: options.name must be the server name, a non-empty string.');
  const threads: AgentThreads = agentThreads(source, options.maxContexts ?? 1000, 'mcpServer');
  const agent = source instanceof AgentBase ? source : undefined;
  const toolName = sanitizeName(options.toolName ?? agent?.name ?? options.name);
  const description =
    options.description ??
    (agent?.description || `Asks the agent "${agent?.name ?? options.name}" to handle a request.`);
  const server = new McpServer({ name: options.name, version: options.version ?? '0.1.0' });
  const serverContext = newId();
  const graceMs = options.interruptGraceMs ?? 10_000;
  server.registerTool(
    toolName,
    {
      description,
      inputSchema: {
        request: z
          .string()
          .describe('The complete request for the agent, with every detail it needs to answer.'),
      },
    },
    (args, extra): Promise<CallToolResult> =>
      runAgentTool(
        threads,
        extra.sessionId ?? serverContext,
        userMsg(args.request),
        extra as ToolCallExtra,
        graceMs,
      ),
  );
  return server;
}
