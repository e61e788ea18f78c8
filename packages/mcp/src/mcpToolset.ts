import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { checkOptions, InvalidArgumentError, type JsonObject, type Tool } from '@rxagent/core';
import { McpConnectionError } from './mcpConnectionError.js';
import type { McpServer, McpToolsetOptions } from './mcpServer.js';
import { mcpTool } from './mcpTool.js';
import { type OpenedTransport, openTransport } from './openTransport.js';

const DEFAULT_CALL_TIMEOUT_MS = 60_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** The version this client announces in the MCP handshake. */
const CLIENT_VERSION = '0.1.0';

/** A server tool that could not become an rxagent tool, and why. */
export interface SkippedMcpTool {
  readonly name: string;
  readonly reason: string;
}

/**
 * The tools of one MCP server, as rxagent Tools, over one open connection. Create it with
 * `McpToolset.connect()`, register `tools` in a Toolkit, and `close()` it when done.
 *
 * Each tool's arguments are validated against the server's JSON Schema before the call;
 * text content becomes the result text, other content is summarised (`[image: image/png,
 * 12 KB]`), an `isError` result becomes an error result; aborting a run (interrupt,
 * unsubscribe, timeout) sends MCP's `notifications/cancelled`; a server that dies mid-call
 * gives an error result at once.
 *
 * @example
 * ```ts
 * const mcp = await McpToolset.connect({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] });
 * const agent = new ReActAgent({ name: 'assistant', sysPrompt: '...', model, toolkit: new Toolkit(mcp.tools) });
 * try {
 *   const reply = await lastValueFrom(agent.call(userMsg('What is 2 + 3? Use get-sum.')));
 *   console.log(textOf(reply));
 * } finally {
 *   await mcp.close();
 * }
 * ```
 */
export class McpToolset {
  /** The server's tools, in the order it listed them. */
  readonly tools: readonly Tool<JsonObject>[];
  /** Server tools left out: a name no chat API accepts, or a schema that cannot validate. */
  readonly skipped: readonly SkippedMcpTool[];
  /** The command line or URL of the server, for logs. */
  readonly server: string;
  readonly #client: Client;
  readonly #opened: OpenedTransport;
  #closing: Promise<void> | undefined;

  private constructor(
    client: Client,
    opened: OpenedTransport,
    tools: readonly Tool<JsonObject>[],
    skipped: readonly SkippedMcpTool[],
  ) {
    this.#client = client;
    this.#opened = opened;
    this.server = opened.label;
    this.tools = Object.freeze([...tools]);
    this.skipped = Object.freeze([...skipped]);
  }

  /**
   * Connects to an MCP server, spawning it for `{ command }` or reaching `{ url }` over
   * streamable HTTP, and lists its tools. Resolves with the toolset; rejects with
   * `InvalidArgumentError` for bad options and `McpConnectionError` when the server cannot be
   * started, reached or listed (the message quotes the end of a child's stderr). A failed
   * connect leaves no child process behind.
   */
  static async connect(server: McpServer, options: McpToolsetOptions = {}): Promise<McpToolset> {
    checkOptions(
      options,
      ['prefix', 'timeoutMs', 'connectTimeoutMs', 'clientName'],
      'McpToolset.connect()',
    );
    const prefix = options.prefix ?? '';
    const timeoutMs = positive('timeoutMs', options.timeoutMs, DEFAULT_CALL_TIMEOUT_MS);
    const connectTimeoutMs = positive(
      'connectTimeoutMs',
      options.connectTimeoutMs,
      DEFAULT_CONNECT_TIMEOUT_MS,
    );
    const opened = openTransport(server);
    const client = new Client({ name: options.clientName ?? 'rxagent', version: CLIENT_VERSION });
    let listed: McpToolInfo[];
    try {
      await client.connect(opened.transport, { timeout: connectTimeoutMs });
      listed = await listAllTools(client, connectTimeoutMs);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw connectionError(error, opened);
    }
    const tools: Tool<JsonObject>[] = [];
    const skipped: SkippedMcpTool[] = [];
    for (const info of listed) {
      try {
        tools.push(mcpTool(info, { client, prefix, timeoutMs, label: opened.label }));
      } catch (error) {
        skipped.push({
          name: info.name,
          reason: error instanceof Error ? error.message : String(error),
        });
      }
    }
    return new McpToolset(client, opened, tools, skipped);
  }

  /**
   * Closes the connection: an HTTP session is ended, a child process is asked to exit and
   * killed if it does not (SIGTERM, then SIGKILL, within about 4 s). Calls still in flight
   * end with error results. Idempotent; never rejects.
   */
  close(): Promise<void> {
    this.#closing ??= this.#opened
      .terminate()
      .then(() => this.#client.close())
      .catch(() => undefined);
    return this.#closing;
  }
}

async function listAllTools(client: Client, timeout: number): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

function connectionError(error: unknown, opened: OpenedTransport): McpConnectionError {
  const message = error instanceof Error ? error.message : String(error);
  const stderr = opened.stderrTail();
  return new McpConnectionError(
    `Could not connect to the MCP server ${opened.label}: ${message}.${stderr ? ` Its stderr ended with: ${stderr}` : ''} Check the command or URL and that the server speaks MCP.`,
    opened.label,
    { cause: error },
  );
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
    throw new InvalidArgumentError(
      `McpToolset.connect(): ${name} must be a positive number of milliseconds.`,
    );
  }
  return value;
}
