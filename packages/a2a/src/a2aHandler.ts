import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2A_VERSION_HEADER } from '@a2a-js/sdk';
import {
  DefaultRequestHandler,
  defaultServerCallContextBuilder,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  UnauthenticatedUser,
  validateVersion,
} from '@a2a-js/sdk/server';
import { type AgentSource, agentThreads, checkOptions } from '@rxagent/core';
import { type A2ACard, AGENT_CARD_PATH, servedCard } from './a2aCard.js';
import { BodyTooLarge, readBody } from './readBody.js';
import { RxAgentExecutor } from './rxAgentExecutor.js';
import { rpcError, sendJson, sendRpcResult } from './sendRpcResult.js';

/** Options of `a2aHandler`. */
export interface A2AHandlerOptions {
  /** The agent card served at `/.well-known/agent-card.json` (see `A2ACard` for defaults). */
  readonly card: A2ACard;
  /** Largest accepted request body in bytes (default 1 MiB); a larger one gets a JSON-RPC error. */
  readonly maxBodyBytes?: number;
  /** With an agent factory: contexts whose agent is kept (default 1000; the oldest idle go first). */
  readonly maxContexts?: number;
  /**
   * After a cancel (or a streaming client that went away), how long the interrupted call may
   * take to end before it is unsubscribed and the task ends canceled (default 10,000 ms).
   */
  readonly interruptGraceMs?: number;
  /**
   * While a reply streams, the text after its first chunk is sent at most this often, in one
   * artifact update per interval (default 50 ms; 0 sends every chunk as it comes).
   */
  readonly streamIntervalMs?: number;
}

const OPTION_KEYS = ['card', 'maxBodyBytes', 'maxContexts', 'interruptGraceMs', 'streamIntervalMs'];

/** A `node:http` request listener. */
export type A2ARequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A `node:http` handler serving an rxagent agent over A2A 1.0 (JSON-RPC binding, as the
 * `@a2a-js/sdk` client speaks it): `GET …/.well-known/agent-card.json` answers the card,
 * and a POST anywhere else is a JSON-RPC request, run by the SDK's request handler on an
 * in-memory task store:
 *
 * - `SendMessage` runs one call of the context's agent and answers with the task (completed
 *   with the reply's text as an artifact, input-required, canceled or failed);
 *   `SendStreamingMessage` streams it as server-sent events: the task, status `working`,
 *   artifact updates with the text as it is generated (then one with the whole text), and
 *   the final status. `GetTask` and `CancelTask` work on those tasks; a cancel interrupts
 *   the call, which ends with an interrupt reply (the conversation stays valid).
 * - An approval stop (`generateReason: 'approval_required'`) ends the task input-required;
 *   its status message has a data part `{ pendingToolCalls: [{ id, name, arguments,
 *   needsApproval }] }`. A message on that task whose data part holds `toolDecisions`
 *   options (`{ approve?, deny?, edit?, remember?, by? }`) resumes the call.
 * - A2A `contextId` is the thread: `source` is one agent (every context shares it), a
 *   factory `(contextId) => agent` (one agent per context, at most `maxContexts` kept), or
 *   an agent host (`AgentHostLike`).
 * - Bad input gets the protocol's error, never a crash: a body that is not JSON is -32700, a
 *   body that is not a JSON-RPC request -32600, an unknown method -32601, an unknown task
 *   -32001, a body over `maxBodyBytes` -32600 with HTTP 413. A streaming client that
 *   disconnects interrupts its call.
 *
 * @example
 * ```ts
 * // One agent per A2A context: each contextId is its own conversation.
 * const handler = a2aHandler(() => new ReActAgent({ name: 'assistant', sysPrompt, model }), {
 *   card: { name: 'assistant', description: 'Answers questions.' },
 * });
 * createServer(handler).listen(9000);
 * ```
 */
export function a2aHandler(source: AgentSource, options: A2AHandlerOptions): A2ARequestListener {
  checkOptions(options, OPTION_KEYS, 'a2aHandler');
  if (typeof options?.card?.name !== 'string')
    throw new TypeError(
      'a2aHandler: options.card must be an agent card with at least a name and a description.',
    );
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const threads = agentThreads(source, options.maxContexts ?? 1000, 'a2aHandler');
  const executor = new RxAgentExecutor(
    threads,
    options.interruptGraceMs ?? 10_000,
    options.streamIntervalMs ?? 50,
  );
  const served = servedCard(options.card);
  const requests = new DefaultRequestHandler(served.card, new InMemoryTaskStore(), executor);
  const rpc = new JsonRpcTransportHandler(requests);
  return (req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    if (req.method === 'GET' && url.pathname.endsWith(AGENT_CARD_PATH)) {
      sendJson(res, 200, served.jsonFor(url));
      return;
    }
    if (req.method !== 'POST') {
      res.setHeader('allow', 'GET, POST');
      sendJson(res, 405, { error: `POST a JSON-RPC request, or GET ${AGENT_CARD_PATH}.` });
      return;
    }
    void handlePost(
      req,
      res,
      maxBodyBytes,
      async (body) => {
        const requestedVersion = header(req, A2A_VERSION_HEADER);
        const context = defaultServerCallContextBuilder({
          extensions: [],
          user: new UnauthenticatedUser(),
          headers: req.headers,
          ...(requestedVersion !== undefined && { requestedVersion }),
        });
        validateVersion(context.requestedVersion, served.card, 'JSONRPC');
        return rpc.handle(body, context);
      },
      executor,
    ).catch(() => res.destroy());
  };
}

async function handlePost(
  req: IncomingMessage,
  res: ServerResponse,
  maxBodyBytes: number,
  run: (body: Record<string, unknown>) => ReturnType<JsonRpcTransportHandler['handle']>,
  executor: RxAgentExecutor,
): Promise<void> {
  const text = await readBody(req, maxBodyBytes);
  if (text instanceof BodyTooLarge) {
    res.setHeader('connection', 'close');
    sendJson(
      res,
      413,
      rpcError(null, -32600, `Request body is larger than ${text.maxBytes} bytes.`),
    );
    return;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    sendJson(
      res,
      200,
      rpcError(null, -32700, `Request body is not valid JSON: ${messageOf(error)}`),
    );
    return;
  }
  const invalid = invalidRequest(body);
  if (invalid !== undefined) {
    const id = isRecord(body) && isId(body['id']) ? body['id'] : null;
    sendJson(res, 200, rpcError(id, -32600, invalid));
    return;
  }
  const request = body as Record<string, unknown>;
  const id = (request['id'] ?? null) as string | number | null;
  let result: Awaited<ReturnType<JsonRpcTransportHandler['handle']>>;
  try {
    result = await run(request);
  } catch (error) {
    sendJson(
      res,
      200,
      rpcError(id, JsonRpcTransportHandler.mapToJSONRPCError(error).code, messageOf(error)),
    );
    return;
  }
  await sendRpcResult(res, id, result, executor);
}

/** Why `body` is not a JSON-RPC 2.0 request, or `undefined` when it is one. */
function invalidRequest(body: unknown): string | undefined {
  if (!isRecord(body))
    return 'The body must be one JSON-RPC 2.0 request object (batches are not supported).';
  if (body['jsonrpc'] !== '2.0') return 'The request must have "jsonrpc": "2.0".';
  if (typeof body['method'] !== 'string' || body['method'] === '')
    return 'The request must name its "method" as a string.';
  if ('id' in body && !isId(body['id']))
    return 'The request "id" must be a string, an integer or null.';
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is string | number | null {
  return value === null || typeof value === 'string' || Number.isInteger(value);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
