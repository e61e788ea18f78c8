/** An MCP server started as a child process and spoken to over its stdin/stdout. */
export interface McpStdioServer {
  /** The program to run, e.g. `node` or `npx`. */
  readonly command: string;
  readonly args?: readonly string[];
  /**
   * Extra environment variables. The child gets only these plus a safe default set (`PATH`,
   * `HOME`, `USER`, ...), never the whole parent environment, so secrets do not leak into it.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** The child's working directory (default: this process's). */
  readonly cwd?: string;
}

/** An MCP server reached over the streamable HTTP transport. */
export interface McpHttpServer {
  /** The server's MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string | URL;
  /** Headers sent with every request (e.g. `Authorization`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Where an MCP server is: a command to spawn (stdio) or a URL (streamable HTTP). */
export type McpServer = McpStdioServer | McpHttpServer;

/** How `McpToolset.connect` turns the server's tools into rxagent tools. */
export interface McpToolsetOptions {
  /**
   * Prepended to every tool name (e.g. `"files_"`), to keep the tools of several servers apart.
   * The resulting names must still be 1-64 letters, digits, `_` or `-`.
   */
  readonly prefix?: string;
  /**
   * How long one tool call may take before it is cancelled (default 60,000 ms). Progress
   * notifications from the server restart the clock.
   */
  readonly timeoutMs?: number;
  /** How long connecting and listing the tools may take (default 30,000 ms). */
  readonly connectTimeoutMs?: number;
  /** The client name sent to the server in the MCP handshake (default `"rxagent"`). */
  readonly clientName?: string;
}
