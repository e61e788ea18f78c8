import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2A_VERSION_HEADER, type AgentCard } from '@a2a-js/sdk';
import { VersionNotSupportedError } from '@a2a-js/sdk/errors';
import {
  DefaultRequestHandler,
  defaultServerCallContextBuilder,
  JsonRpcTransportHandler,
  UnauthenticatedUser,
  validateVersion,
} from '@a2a-js/sdk/server';
import {
  type AgentSource,
  type AllowedOrigins,
  agentThreads,
  checkOptions,
  InvalidArgumentError,
  OriginPolicy,
} from '@rxagent/core';
import { type A2ACard, AGENT_CARD_PATH, servedCard } from './a2aCard.js';
import { admitRequest } from './admitRequest.js';
import { BoundedTaskStore } from './boundedTaskStore.js';
import { isRefusal, type RequestLimits, readRpcRequest } from './readRpcRequest.js';
import { RxAgentExecutor } from './rxAgentExecutor.js';
import { rpcError, sendJson, sendRpcResult } from './sendRpcResult.js';

/** Options of `a2aHandler`. */
export interface A2AHandlerOptions {
  /** The agent card served at `/.well-known/agent-card.json` (see `A2ACard` for defaults). */
  readonly card: A2ACard;
  /** Largest accepted request body in bytes (default 1 MiB); a larger one gets a JSON-RPC error. */
  readonly maxBodyBytes?: number;
  /**
   * Deepest accepted nesting of arrays and objects in a request body, the body itself being
   * level 1 (default 64); a deeper one gets JSON-RPC -32602 (HTTP 200) naming the limit.
   */
  readonly maxInputDepth?: number;
  /**
   * Browser origins besides the server's own that may call the agent (default none): a list
   * like `['https://app.example.com']`, or a function of the `Origin` header. A request from
   * the server's own page or without an `Origin` header (not a browser: the SDK client, a
   * server, curl) is always allowed; any other origin gets HTTP 403. An allowed other origin
   * gets CORS headers, and its preflight (`OPTIONS`) a 204.
   */
  readonly allowedOrigins?: AllowedOrigins;
  /** With an agent factory: contexts whose agent is kept (default 1000; the oldest idle go first). */
  readonly maxContexts?: number;
  /**
   * Finished tasks kept for `GetTask`, `ListTasks` and resuming (default 1000): completed,
   * failed, canceled, rejected and input-required ones; past it, the task that finished
   * longest ago is dropped and answers "task not found" (-32001). Running tasks are always
   * kept.
   */
  readonly maxTasks?: number;
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

const OPTION_KEYS = [
  'card',
  'maxBodyBytes',
  'maxInputDepth',
  'allowedOrigins',
  'maxContexts',
  'maxTasks',
  'interruptGraceMs',
  'streamIntervalMs',
];

/** A `node:http` request listener. */
export type A2ARequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A `node:http` handler serving an rxagent agent over A2A 1.0 (JSON-RPC binding, as the
 * `@a2a-js/sdk` client speaks it): `GET …/.well-known/agent-card.json` answers the card,
 * and a POST anywhere else is a JSON-RPC request, run by the SDK's request handler on an
 * in-memory task store that keeps at most `maxTasks` finished tasks:
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
 * - Finished tasks are kept in memory, at most `maxTasks` (default 1000): past it, the task
 *   that finished longest ago is dropped and answers "task not found" (-32001).
 * - Requests are checked like `agUiHandler`'s: a browser page of another origin than
 *   `allowedOrigins` admits gets HTTP 403, a content type other than `application/json` (or
 *   `application/a2a+json`) 415, another method than POST 405 — each with a JSON-RPC error
 *   body. A request must send the header `A2A-Version: 1.0`: without it, A2A reads the
 *   request as version 0.3, which gets -32009 (version not supported).
 * - Bad input gets the protocol's error, never a crash: a body that is not JSON is -32700, a
 *   body that is not a JSON-RPC request -32600, an unknown method -32601, a body nested
 *   deeper than `maxInputDepth` (64) -32602, a message with an unknown role or no parts
 *   -32602, an unknown task -32001, a body over `maxBodyBytes` -32600 with HTTP 413. A
 *   streaming client that disconnects interrupts its call.
 *
 * @example
 * ```ts
 * // One agent per A2A context: each contextId is its own conversation.
 * const handler = a2aHandler(() => new ReActAgent({ name: 'assistant', sysPrompt, model }), {
 *   card: { name: 'assistant', description: 'Answers questions.' },
 * });
 * createServer(handler).listen(9000);
 * ```
 *
 * Throws `TypeError` for an unknown option or a card without a name, and
 * `InvalidArgumentError` for a limit that is not a positive whole number or a bad
 * `allowedOrigins` entry.
 */
export function a2aHandler(source: AgentSource, options: A2AHandlerOptions): A2ARequestListener {
  checkOptions(options, OPTION_KEYS, 'a2aHandler');
  if (typeof options?.card?.name !== 'string')
    throw new TypeError(
      'a2aHandler: options.card must be an agent card with at least a name and a description.',
    );
  const limits: RequestLimits = {
    maxBodyBytes: positiveWhole(options.maxBodyBytes, 1024 * 1024, 'maxBodyBytes'),
    maxInputDepth: positiveWhole(options.maxInputDepth, 64, 'maxInputDepth'),
  };
  const maxTasks = positiveWhole(options.maxTasks, 1000, 'maxTasks');
  const origins = new OriginPolicy(options.allowedOrigins, 'a2aHandler');
  const threads = agentThreads(source, options.maxContexts ?? 1000, 'a2aHandler');
  const executor = new RxAgentExecutor(
    threads,
    options.interruptGraceMs ?? 10_000,
    options.streamIntervalMs ?? 50,
  );
  const served = servedCard(options.card);
  const tasks = new BoundedTaskStore(maxTasks);
  const requests = new DefaultRequestHandler(served.card, tasks, executor);
  const rpc = new JsonRpcTransportHandler(requests);
  return (req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    if (req.method === 'GET' && url.pathname.endsWith(AGENT_CARD_PATH)) {
      sendJson(res, 200, served.jsonFor(url));
      return;
    }
    if (!admitRequest(req, res, origins)) return;
    void handlePost(
      req,
      res,
      limits,
      async (body) => {
        const requestedVersion = header(req, A2A_VERSION_HEADER);
        checkVersion(requestedVersion, served.card);
        const context = defaultServerCallContextBuilder({
          extensions: [],
          user: new UnauthenticatedUser(),
          headers: req.headers,
          ...(requestedVersion !== undefined && { requestedVersion }),
        });
        return rpc.handle(body, context);
      },
      executor,
    ).catch(() => res.destroy());
  };
}

async function handlePost(
  req: IncomingMessage,
  res: ServerResponse,
  limits: RequestLimits,
  run: (body: Record<string, unknown>) => ReturnType<JsonRpcTransportHandler['handle']>,
  executor: RxAgentExecutor,
): Promise<void> {
  const read = await readRpcRequest(req, limits);
  if (isRefusal(read)) {
    if (read.close === true) res.setHeader('connection', 'close');
    sendJson(res, read.status, read.error);
    return;
  }
  let result: Awaited<ReturnType<JsonRpcTransportHandler['handle']>>;
  try {
    result = await run(read.body);
  } catch (error) {
    const code = JsonRpcTransportHandler.mapToJSONRPCError(error).code;
    sendJson(res, 200, rpcError(read.id, code, messageOf(error)));
    return;
  }
  await sendRpcResult(res, read.id, result, executor);
}

/**
 * Checks the request's `A2A-Version`. A2A reads a missing or empty header as version 0.3,
 * which this 1.0 server does not speak: that gets -32009 (VersionNotSupportedError) with a
 * message saying which header to send, where the SDK's own would only name "0.3".
 */
function checkVersion(requested: string | undefined, card: AgentCard): void {
  if (requested === undefined || requested.trim() === '')
    throw new VersionNotSupportedError(
      `The request has no ${A2A_VERSION_HEADER} header, which A2A reads as version 0.3; this agent speaks A2A 1.0: send the header "${A2A_VERSION_HEADER}: 1.0".`,
    );
  validateVersion(requested, card, 'JSONRPC');
}

function positiveWhole(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (Number.isSafeInteger(value) && value > 0) return value;
  throw new InvalidArgumentError(
    `a2aHandler: ${name} must be a positive whole number (got ${JSON.stringify(value) ?? String(value)}).`,
  );
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
