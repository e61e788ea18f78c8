import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** Answers one request, given its whole body as text. */
export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A loopback server started by `serve`. */
export interface TestServer {
  readonly url: string;
  /** Connections opened so far. */
  readonly connections: () => number;
  /** Resolves when the first connection has closed. */
  readonly closed: Promise<void>;
  /** Stops listening, so a new connection is refused. */
  readonly stop: () => Promise<void>;
}

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/**
 * Starts `server` (plain HTTP by default) on a free loopback port, answering every request
 * with `handler` once its body has arrived; it is closed after the test.
 */
export async function serve(
  handler: Handler,
  server: Server = createServer(),
): Promise<TestServer> {
  let connections = 0;
  let onClose: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    onClose = resolve;
  });
  server.on('connection', (socket) => {
    connections++;
    socket.on('close', onClose);
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => handler(req, res, Buffer.concat(parts).toString('utf8')));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const scheme = 'cert' in server ? 'https' : 'http';
  const stop = async () => {
    servers.splice(servers.indexOf(server), 1);
    await new Promise((resolve) => server.close(resolve));
  };
  return { url: `${scheme}://127.0.0.1:${port}`, connections: () => connections, closed, stop };
}
