import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { checkOptions, InvalidArgumentError } from '@rxagent/core';
import type { McpServer } from './mcpServer.js';

/** Keep this much of a child's stderr, to quote when it fails to start. */
const STDERR_TAIL_CHARS = 2000;

/** A transport to one server, how to name the server in errors, and its recent stderr. */
export interface OpenedTransport {
  readonly transport: Transport;
  readonly label: string;
  /** The last lines the child wrote to stderr ('' for HTTP servers). */
  stderrTail(): string;
  /** Ends the HTTP session politely (DELETE); no-op for stdio. Never rejects. */
  terminate(): Promise<void>;
}

/**
 * Builds the transport for `server` after checking its shape. Throws `InvalidArgumentError`
 * naming the bad field. Nothing is started until the client connects.
 */
export function openTransport(server: McpServer): OpenedTransport {
  if (typeof server !== 'object' || server === null) {
    throw new InvalidArgumentError(
      'McpToolset.connect(): expected { command, args?, env? } or { url }.',
    );
  }
  if ('url' in server) {
    checkOptions(server, ['url', 'headers'], 'McpToolset.connect(): server');
    return openHttp(server.url, server.headers);
  }
  checkOptions(server, ['command', 'args', 'env', 'cwd'], 'McpToolset.connect(): server');
  if ('command' in server && typeof server.command === 'string' && server.command !== '') {
    const { command, args = [], env, cwd } = server;
    if (!Array.isArray(args) || args.some((arg) => typeof arg !== 'string')) {
      throw new InvalidArgumentError('McpToolset.connect(): args must be an array of strings.');
    }
    let tail = '';
    const transport = new StdioClientTransport({
      command,
      args: [...args],
      ...(env !== undefined && { env: { ...env } }),
      ...(cwd !== undefined && { cwd }),
      stderr: 'pipe',
    });
    // Read stderr always: a child whose pipe is never drained blocks once the buffer fills.
    transport.stderr?.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    return {
      transport,
      label: [command, ...args].join(' '),
      stderrTail: () => tail.trim(),
      terminate: () => Promise.resolve(),
    };
  }
  throw new InvalidArgumentError(
    'McpToolset.connect(): give either a non-empty command (stdio) or a url (streamable HTTP).',
  );
}

function openHttp(
  url: unknown,
  headers: Readonly<Record<string, string>> | undefined,
): OpenedTransport {
  let parsed: URL;
  try {
    parsed = url instanceof URL ? url : new URL(String(url));
  } catch (error) {
    throw new InvalidArgumentError(
      `McpToolset.connect(): url ${JSON.stringify(String(url))} is not a valid URL.`,
      { cause: error },
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new InvalidArgumentError(
      `McpToolset.connect(): url ${parsed.href} must use http: or https:.`,
    );
  }
  const transport = new StreamableHTTPClientTransport(parsed, {
    ...(headers !== undefined && { requestInit: { headers: { ...headers } } }),
  });
  return {
    transport,
    label: parsed.href,
    stderrTail: () => '',
    terminate: () => transport.terminateSession().catch(() => undefined),
  };
}
