import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, type Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { type JsonObject, type Tool, tool } from '@rxagent/core';
import { contentToText } from './contentToText.js';

/** How the tools of one connection call their server. */
export interface McpCallSettings {
  readonly client: Client;
  readonly prefix: string;
  readonly timeoutMs: number;
  readonly label: string;
}

/**
 * Wraps one tool listed by an MCP server as an rxagent Tool. Its `parameters` are the
 * server's JSON Schema, so the toolkit validates the model's arguments before anything is
 * sent (the server never sees a call that does not match). A run sends `tools/call` with
 * the run's signal: aborting it makes the SDK send `notifications/cancelled` to the server.
 * An `isError` result, a lost connection or a timeout become error tool results.
 * Throws `InvalidArgumentError` (from `tool()`) when the name or schema is unusable.
 */
export function mcpTool(info: McpToolInfo, settings: McpCallSettings): Tool<JsonObject> {
  const { client, timeoutMs, label } = settings;
  const mcpName = info.name;
  return tool({
    name: `${settings.prefix}${mcpName}`,
    description: info.description ?? info.title ?? info.annotations?.title ?? '',
    parameters: info.inputSchema,
    // Calls to an MCP server may have effects or changing answers: repeat them unless the
    // server says the tool is idempotent.
    dedupe: info.annotations?.idempotentHint === true,
    execute: async (args, context) => {
      let result: Awaited<ReturnType<Client['callTool']>>;
      try {
        result = await client.callTool({ name: mcpName, arguments: args }, undefined, {
          signal: context.signal,
          timeout: timeoutMs,
          resetTimeoutOnProgress: true,
        });
      } catch (error) {
        throw new Error(describeCallFailure(error, label, timeoutMs), { cause: error });
      }
      const text = contentToText(result as Parameters<typeof contentToText>[0]);
      if (result.isError === true) throw new Error(text);
      return text;
    },
  }) as Tool<JsonObject>;
}

function describeCallFailure(error: unknown, label: string, timeoutMs: number): string {
  if (error instanceof McpError) {
    if (error.code === ErrorCode.ConnectionClosed) {
      return `lost its MCP server (${label}): the connection closed before the call finished; the server may have exited.`;
    }
    if (error.code === ErrorCode.RequestTimeout) {
      return `got no answer from its MCP server within ${timeoutMs} ms.`;
    }
    return `was refused by its MCP server: ${error.message}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (message === 'Not connected') {
    return `cannot reach its MCP server (${label}): the connection is closed; reconnect with McpToolset.connect().`;
  }
  return `could not reach its MCP server (${label}): ${message}`;
}
