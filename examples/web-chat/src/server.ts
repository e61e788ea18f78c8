import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { agUiHandler } from '@rxagent/ag-ui';
import { AgentHost } from '@rxagent/core';
import { chooseModel } from '@rxagent/example-kit';
import type { ReActAgent } from '@rxagent/react-agent';
import { chatAgent } from './chatAgent.js';
import { chatScript } from './script.js';

/** Options of `startWebChat`. */
export interface WebChatOptions {
  /** Port to listen on (default 0: a free one); the host is always 127.0.0.1. */
  readonly port?: number;
  /** Environment that selects the model (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** Milliseconds between streamed words offline (default 40). */
  readonly paceMs?: number;
}

/** A running web chat. */
export interface WebChat {
  readonly url: string;
  /** One line saying whether a scripted or a real model answers. */
  readonly banner: string;
  /** The agent of each conversation, by AG-UI thread id. */
  readonly agents: ReadonlyMap<string, ReActAgent>;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** Files the page is made of, served as they are. */
const STATIC: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
};
const PUBLIC_DIR = new URL('../public/', import.meta.url);

/**
 * Starts the chat's `node:http` server: the page on `/`, and AG-UI on `POST /agent`, where
 * each thread (conversation) gets its own ReActAgent. Offline by default (a scripted model per
 * conversation); a real model when `OPENAI_API_KEY` or `OPENAI_BASE_URL` is set.
 */
export async function startWebChat(options: WebChatOptions = {}): Promise<WebChat> {
  const env = options.env ?? process.env;
  const script = chatScript(options.paceMs ?? 40);
  const { banner } = chooseModel(script, env);
  const agents = new Map<string, ReActAgent>();
  // One conversation per AG-UI thread (each tab), one run at a time per thread; a second tab
  // can follow a thread's run (GET /agent?threadId=…).
  const host = new AgentHost({
    create: (threadId) => {
      const created = chatAgent(chooseModel(script, env).model);
      agents.set(threadId, created);
      return created;
    },
  });
  const agent = agUiHandler(
    host,
    // Only this server's own page may run the agent: a page of any other origin (another
    // tab's site POSTing to 127.0.0.1) gets 403, and a non-JSON POST 415.
    { allowedOrigins: [] },
  );
  const server = createServer((req, res) => {
    if ((req.url ?? '').split('?')[0] === '/agent') agent(req, res);
    else void serveStatic(req, res, banner);
  });
  await listenOn(server, options.port ?? 0);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    banner,
    agents,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * Listens on 127.0.0.1:`port`; a port that is taken rejects with an error saying which one
 * and how to pick another, instead of an unhandled `error` event.
 */
function listenOn(server: Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              `web-chat: port ${port} on 127.0.0.1 is already in use (is another web chat running?): stop it, or pick another port, e.g. PORT=${port + 1}.`,
              { cause: error },
            )
          : error,
      );
    };
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve();
    });
  });
}

async function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  banner: string,
): Promise<void> {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const entry = STATIC[path];
  if (entry === undefined || (req.method !== 'GET' && req.method !== 'HEAD')) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
    return;
  }
  try {
    let body = await readFile(new URL(entry.file, PUBLIC_DIR), 'utf8');
    if (entry.file === 'index.html') body = body.replace('{{banner}}', escapeHtml(banner));
    res.writeHead(200, { 'content-type': entry.type, 'cache-control': 'no-store' }).end(body);
  } catch (error) {
    res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`${String(error)}\n`);
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
