import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** What the test server saw. */
export interface LoopbackMcpServer {
  readonly url: string;
  /** Every `tools/call` that reached a tool handler, in order. */
  readonly calls: Array<{ name: string; args: unknown }>;
  /** Every cancellation the server received for a `wait` call, with its reason. */
  readonly cancellations: Array<{ reason: string }>;
  /** Resolves when the next `wait` call has started on the server. */
  nextWaitStarted(): Promise<void>;
  /** Resolves when the next cancellation has reached the server. */
  nextCancellation(): Promise<{ reason: string }>;
  /** Cuts every connection at once and stops listening, like a crashed server. */
  crash(): void;
  close(): Promise<void>;
}

/** A waiter for the next occurrence of something. */
class Signal<T> {
  #waiters: Array<(value: T) => void> = [];
  next(): Promise<T> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
  fire(value: T): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve(value);
  }
}

/**
 * Starts an MCP server built with the official SDK, over streamable HTTP on a free loopback
 * port, with tools `add` (integer arguments), `fail` (an `isError` result), `picture` (an
 * image), `steps` (two progress notifications, then a result) and `wait` (runs until
 * cancelled, recording the cancellation).
 */
export async function startLoopbackMcpServer(): Promise<LoopbackMcpServer> {
  const calls: LoopbackMcpServer['calls'] = [];
  const cancellations: LoopbackMcpServer['cancellations'] = [];
  const waitStarted = new Signal<void>();
  const cancelled = new Signal<{ reason: string }>();
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const sockets = new Set<Socket>();

  const buildServer = (): McpServer => {
    const server = new McpServer({ name: 'loopback-test', version: '1.0.0' });
    server.registerTool(
      'add',
      {
        description: 'Adds two integers.',
        inputSchema: { a: z.number().int(), b: z.number().int() },
        annotations: { idempotentHint: true },
      },
      async (args) => {
        calls.push({ name: 'add', args });
        return { content: [{ type: 'text', text: String(args.a + args.b) }] };
      },
    );
    server.registerTool('fail', { description: 'Always fails.' }, async () => {
      calls.push({ name: 'fail', args: {} });
      return { content: [{ type: 'text', text: 'disk quota exceeded' }], isError: true };
    });
    server.registerTool(
      'picture',
      { description: 'Returns a picture and a caption.' },
      async () => {
        calls.push({ name: 'picture', args: {} });
        return {
          content: [
            { type: 'text', text: 'A red square.' },
            {
              type: 'image',
              mimeType: 'image/png',
              data: Buffer.alloc(12 * 1024).toString('base64'),
            },
          ],
        };
      },
    );
    server.registerTool('wait', { description: 'Waits until cancelled.' }, (extra) => {
      calls.push({ name: 'wait', args: {} });
      return new Promise((resolve) => {
        extra.signal.addEventListener('abort', () => {
          const record = { reason: String(extra.signal.reason) };
          cancellations.push(record);
          cancelled.fire(record);
          resolve({ content: [{ type: 'text', text: 'cancelled' }] });
        });
        waitStarted.fire();
      });
    });
    server.registerTool(
      'steps',
      { description: 'Reports progress twice, then answers.' },
      async (extra) => {
        calls.push({ name: 'steps', args: {} });
        const progressToken = extra._meta?.progressToken;
        for (const progress of [1, 2]) {
          if (progressToken === undefined) break;
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress, total: 2, message: `step ${progress}` },
          });
        }
        return { content: [{ type: 'text', text: 'all steps done' }] };
      },
    );
    // A legal MCP name that no chat API accepts as a function name.
    server.registerTool('files.read', { description: 'Has a dotted name.' }, async () => ({
      content: [{ type: 'text', text: 'never called' }],
    }));
    return server;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const id = req.headers['mcp-session-id'];
    const existing = typeof id === 'string' ? sessions.get(id) : undefined;
    if (existing !== undefined) {
      await existing.handleRequest(req, res);
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await buildServer().connect(transport);
    await transport.handleRequest(req, res);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  http.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    cancellations,
    nextWaitStarted: () => waitStarted.next(),
    nextCancellation: () => cancelled.next(),
    crash: () => {
      http.close();
      for (const socket of sockets) socket.destroy();
    },
    close: async () => {
      for (const transport of sessions.values()) await transport.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
