import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach } from 'vitest';

/** Writes one response; `n` counts requests from 1; `body` is the request body. */
export type FaultHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  n: number,
  body: string,
) => void;

/** A loopback HTTP server whose every response a test writes by hand. */
export interface FaultServer {
  /** `http://127.0.0.1:<port>/v1`. */
  readonly baseURL: string;
  /** Requests received so far (every path). */
  readonly requests: number;
  /** Stops the server, destroying open connections. */
  close(): Promise<void>;
}

/** Servers still open; each is closed after the test that started it. */
const open = new Set<FaultServer>();

afterEach(async () => {
  for (const server of [...open]) await server.close();
});

/**
 * Starts a loopback server on a free port answering every request with `handler`. It is
 * closed after the test (or earlier, by `close()`).
 */
export async function startFaultServer(handler: FaultHandler): Promise<FaultServer> {
  let requests = 0;
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    requests += 1;
    const n = requests;
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => handler(req, res, n, Buffer.concat(parts).toString('utf8')));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fault: FaultServer = {
    baseURL: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return requests;
    },
    close: () => {
      open.delete(fault);
      return new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      });
    },
  };
  open.add(fault);
  return fault;
}

/** A chunk object as a Chat Completions SSE `data:` line pair. */
export function sseData(value: unknown): string {
  return `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;
}

/** A streamed chunk with one choice carrying `delta` (and a finish reason when given). */
export function deltaChunk(delta: object, finishReason: string | null = null): object {
  return {
    id: 'chatcmpl-fault',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'fault-model',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

/** Starts an event-stream response. */
export function startSse(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
}

/** Writes a whole, well-formed streamed answer of `text`. */
export function answerSse(res: ServerResponse, text: string): void {
  startSse(res);
  res.write(sseData(deltaChunk({ role: 'assistant', content: '' })));
  res.write(sseData(deltaChunk({ content: text })));
  res.write(sseData(deltaChunk({}, 'stop')));
  res.end('data: [DONE]\n\n');
}
