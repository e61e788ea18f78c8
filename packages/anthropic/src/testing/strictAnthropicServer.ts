import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { JsonObject } from '@rxagent/core';
import type { CacheUsage } from '@rxagent/core/testing';
import { AnthropicPromptCache } from './anthropicPromptCache.js';
import type {
  AnthropicScriptedError,
  AnthropicScriptedReply,
  AnthropicScriptedTurn,
} from './anthropicScript.js';
import { fromMessagesBody } from './fromMessagesBody.js';
import { encodeEvent, isContentEvent, planEvents, type SentEvent } from './messagesEvents.js';
import { ThinkingSigner } from './thinkingSigner.js';
import { validateMessagesRequest } from './validateMessagesRequest.js';

/** One request the strict Anthropic server received. */
export interface AnthropicRecordedRequest {
  /** The parsed JSON body (`{}` when it was not JSON). */
  readonly body: JsonObject;
  readonly headers: IncomingMessage['headers'];
  /** Why it was answered 400, when it was. */
  readonly rejection?: string;
  /** What the simulated prompt cache reported for it (see `AnthropicPromptCache`); absent when it never reached the model. */
  readonly cache?: CacheUsage;
}

/** A running strict loopback Messages API server (see `startStrictAnthropicServer`). */
export interface StrictAnthropicServer {
  /** `"http://127.0.0.1:<port>"`: pass it as `baseURL` (the SDK adds `/v1/messages`). */
  readonly baseURL: string;
  /** Every `POST /v1/messages`, in arrival order. */
  readonly requests: readonly AnthropicRecordedRequest[];
  /** Those answered 400 by validation. */
  readonly rejected: readonly AnthropicRecordedRequest[];
  /** Appends replies to the script. */
  enqueue(...replies: AnthropicScriptedReply[]): void;
  /** Stops listening and destroys open connections; resolves when closed. */
  close(): Promise<void>;
}

const ENDPOINT = '/v1/messages';

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

/**
 * Starts an HTTP server on 127.0.0.1 that speaks Anthropic's Messages API (`POST
 * /v1/messages`, `stream: true`) and answers from `script`, one entry per accepted request.
 * It rejects with a 400, like the real API, what `validateMessagesRequest` finds invalid: a
 * `tool_use` left unanswered, a thinking `signature` that does not match the thinking this
 * server sent, a missing `max_tokens`, turns out of alternation, forced tool use while
 * thinking, and more; a request without `x-api-key` or `anthropic-version` gets a 401 / 400.
 * Usage simulates prompt caching (see `AnthropicPromptCache`): `cache_read_input_tokens` and
 * `cache_creation_input_tokens` by the `cache_control` breakpoints, `input_tokens` the rest of
 * the estimate `ceil(chars / 4)` of the tools', system's and messages' JSON (unless the
 * script sets usage); each answered request records its `cache` usage (see
 * `cacheHitRatio`); more than 4 breakpoints is a 400, like the API. A request after the script ran out is
 * answered 500 with `x-should-retry: false`.
 *
 * @example
 * ```ts run
 * const server = await startStrictAnthropicServer(['Hello!']);
 * try {
 *   const model = new AnthropicChatModel({ baseURL: server.baseURL, apiKey: 'test', model: 'claude-test' });
 *   const agent = new ReActAgent({ name: 'assistant', sysPrompt: 'Be brief.', model });
 *   const reply = await lastValueFrom(agent.call(userMsg('Hi')));
 *   console.log(textOf(reply), server.requests.length); // "Hello!" 1
 * } finally {
 *   await server.close();
 * }
 * ```
 */
export async function startStrictAnthropicServer(
  script: AnthropicScriptedReply[] = [],
): Promise<StrictAnthropicServer> {
  const server = new AnthropicLoopback(script);
  await server.listen();
  return server;
}

class AnthropicLoopback implements StrictAnthropicServer {
  readonly #http: Server;
  readonly #script: AnthropicScriptedReply[];
  readonly #sockets = new Set<Socket>();
  readonly #signer = new ThinkingSigner();
  readonly #cache = new AnthropicPromptCache();
  readonly #requests: AnthropicRecordedRequest[] = [];
  readonly #rejected: AnthropicRecordedRequest[] = [];
  #answered = 0;
  #toolIds = 0;
  #port = 0;
  #closed: Promise<void> | undefined;

  constructor(script: AnthropicScriptedReply[]) {
    this.#script = [...script];
    this.#http = createServer((req, res) => this.#handle(req, res));
    this.#http.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.once('close', () => this.#sockets.delete(socket));
    });
  }

  get baseURL(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  get requests(): readonly AnthropicRecordedRequest[] {
    return this.#requests;
  }

  get rejected(): readonly AnthropicRecordedRequest[] {
    return this.#rejected;
  }

  enqueue(...replies: AnthropicScriptedReply[]): void {
    this.#script.push(...replies);
  }

  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#http.once('error', reject);
      this.#http.listen(0, '127.0.0.1', () => {
        this.#http.off('error', reject);
        const address = this.#http.address();
        this.#port = typeof address === 'object' && address ? address.port : 0;
        resolve();
      });
    });
  }

  close(): Promise<void> {
    this.#closed ??= new Promise((resolve) => {
      this.#http.close(() => resolve());
      for (const socket of this.#sockets) socket.destroy();
    });
    return this.#closed;
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (req.method !== 'POST' || path !== ENDPOINT) {
      req.resume();
      sendError(
        res,
        404,
        `Unknown request URL: ${req.method} ${req.url}. This server serves only POST ${ENDPOINT}.`,
      );
      return;
    }
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.once('end', () => this.#exchange(req, res, Buffer.concat(parts).toString('utf8')));
    req.once('error', () => req.socket.destroy());
  }

  #exchange(req: IncomingMessage, res: ServerResponse, text: string): void {
    let body: unknown;
    let problem: string | undefined;
    try {
      body = JSON.parse(text);
    } catch (error) {
      problem = `body: the request body is not valid JSON (${(error as Error).message})`;
    }
    const record = (rejection?: string): JsonObject => {
      const parsed = (body !== null && typeof body === 'object' ? body : {}) as JsonObject;
      const entry: AnthropicRecordedRequest = {
        body: parsed,
        headers: req.headers,
        ...(rejection !== undefined && { rejection }),
      };
      this.#requests.push(entry);
      if (rejection !== undefined) this.#rejected.push(entry);
      return parsed;
    };
    // The request's entry, once more with what the cache reported (entries are immutable).
    const withCache = (cache: CacheUsage): void => {
      const at = this.#requests.length - 1;
      this.#requests[at] = { ...this.#requests[at]!, cache };
    };
    if (
      typeof req.headers['x-api-key'] !== 'string' &&
      typeof req.headers['authorization'] !== 'string'
    ) {
      record('x-api-key header is required');
      sendError(res, 401, 'x-api-key header is required');
      return;
    }
    if (typeof req.headers['anthropic-version'] !== 'string') {
      record('anthropic-version: header is required');
      sendError(res, 400, 'anthropic-version: header is required');
      return;
    }
    problem ??= validateMessagesRequest(body, this.#signer);
    if (problem === undefined && (body as JsonObject)['stream'] !== true) {
      problem = 'stream: this test server answers only streamed requests (stream: true)';
    }
    const parsed = record(problem);
    if (problem !== undefined) {
      sendError(res, 400, problem);
      return;
    }
    const entry = this.#script.shift();
    const number = this.#requests.length;
    if (entry === undefined) {
      sendError(
        res,
        500,
        `StrictAnthropicServer script exhausted: request #${number} arrived but only ${this.#answered} replies were scripted. Script one more reply (enqueue()) or find why the agent sent an extra request.`,
        { 'x-should-retry': 'false' },
      );
      return;
    }
    let turn: AnthropicScriptedTurn;
    try {
      const value =
        typeof entry === 'function' ? entry(fromMessagesBody(parsed), this.#answered) : entry;
      turn = typeof value === 'string' ? { text: value } : value;
    } catch (error) {
      sendError(
        res,
        500,
        `StrictAnthropicServer: the script function for request #${number} threw: ${(error as Error).message}`,
        { 'x-should-retry': 'false' },
      );
      return;
    }
    this.#answered++;
    const error = turn.error;
    const refused = error?.status !== undefined && error.afterChunks === undefined;
    const cache = refused ? undefined : this.#cache.serve(parsed);
    if (cache) withCache(cache);
    void this.#serve(req, res, parsed, turn, number, cache);
  }

  async #serve(
    req: IncomingMessage,
    res: ServerResponse,
    body: JsonObject,
    turn: AnthropicScriptedTurn,
    number: number,
    cache: CacheUsage | undefined,
  ): Promise<void> {
    const error = turn.error;
    if (error?.status !== undefined && error.afterChunks === undefined) {
      sendError(res, error.status, error.message ?? 'Scripted failure', error.headers, error.type);
      return;
    }
    const events = planEvents(turn, {
      model: String(body['model']),
      messageId: `msg_${number}`,
      signer: this.#signer,
      nextToolId: () => `toolu_${++this.#toolIds}`,
      usage: usageOf(cache, turn),
    });
    let closed = false;
    res.once('close', () => {
      closed = true;
    });
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'request-id': `req_${number}`,
    });
    if (turn.delayMs) await wait(turn.delayMs, res);
    let content = 0;
    for (const event of events) {
      if (closed) return;
      if (error !== undefined && isContentEvent(event) && content >= (error.afterChunks ?? 0)) {
        this.#fail(req, res, error);
        return;
      }
      if (error !== undefined && event.event === 'message_delta') {
        this.#fail(req, res, error);
        return;
      }
      if (isContentEvent(event)) content++;
      res.write(encodeEvent(event));
      if (turn.chunkDelayMs && isContentEvent(event)) await wait(turn.chunkDelayMs, res);
    }
    res.end();
  }

  #fail(req: IncomingMessage, res: ServerResponse, error: AnthropicScriptedError): void {
    const type = error.type ?? (error.status === undefined ? undefined : errorType(error.status));
    const message = error.message;
    if (type === undefined || type === 'reset') {
      req.socket.destroy();
      return;
    }
    const errorEvent: SentEvent = {
      event: 'error',
      data: {
        type: 'error',
        error: { type: type ?? 'api_error', message: message ?? 'Scripted failure' },
      },
    };
    res.end(encodeEvent(errorEvent));
  }
}

/** The usage a reply reports: the input not read from or written to the cache, and the cache's counts. */
function usageOf(
  cache: CacheUsage | undefined,
  turn: AnthropicScriptedTurn,
): { input: number; cacheRead: number; cacheWrite: number } {
  const cacheRead = cache?.cachedTokens ?? 0;
  const cacheWrite = cache?.writtenTokens ?? 0;
  const rest = Math.max(0, (cache?.inputTokens ?? 1) - cacheRead - cacheWrite);
  return { input: turn.usage?.inputTokens ?? rest, cacheRead, cacheWrite };
}

function errorType(status: number): string {
  return ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  type?: string,
): void {
  const body = JSON.stringify({
    type: 'error',
    error: {
      type: type ?? ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'),
      message,
    },
  });
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

/** Waits `ms`, or until the response closes (the client went away). */
function wait(ms: number, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.once('close', done);
  });
}
