import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { isJsonObject, type JsonObject } from '../json.js';
import { checkOptions, optionNames } from '../options/checkOptions.js';
import { answerEmbeddings, EMBEDDINGS_ENDPOINT } from './embeddingsEndpoint.js';
import { errorBody } from './openAIReply.js';
import { OpenAIPromptCache } from './promptCache.js';
import { type RecordedRequest, Recording } from './recordedRequest.js';
import { resolveReply, type ScriptedReply, scriptExhaustedMessage } from './script.js';
import { type DialectWire, ServerDialect, type StrictServerDialect } from './serverDialect.js';
import { sendJson, serveTurn } from './serveTurn.js';
import { planTurn } from './turnPlan.js';
import { validateChatRequest } from './validateChatRequest.js';
import { fromWireRequest } from './wireRequest.js';

export type { RecordedRequest } from './recordedRequest.js';
export type { StrictServerDialect } from './serverDialect.js';

/** Options of `startStrictOpenAIServer`. */
export interface StrictOpenAIServerOptions {
  /** Replies, one per accepted request, in order. */
  script?: ScriptedReply[];
  /** Port on 127.0.0.1; default 0 (any free port). */
  port?: number;
  /** The `model` reported in responses; default: the model the request named. */
  model?: string;
  /**
   * Plays a provider's rules about reasoning sent back (see `StrictServerDialect`): replies
   * carry its reasoning fields, and a request that does not send them back is answered 400
   * with that provider's error text. Default: none (plain OpenAI).
   */
  dialect?: StrictServerDialect;
}

/** A running strict loopback OpenAI-compatible server (see `startStrictOpenAIServer`). */
export interface StrictOpenAIServer {
  /** `"http://127.0.0.1:<port>/v1"`: pass it as the OpenAI client's `baseURL`. */
  readonly baseURL: string;
  /** Every `POST /v1/chat/completions`, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** Those answered 400 by validation. */
  readonly rejected: readonly RecordedRequest[];
  /**
   * The body of every `POST /v1/embeddings`, in arrival order: answered deterministically
   * (see `answerEmbeddings`), never from the script.
   */
  readonly embeddingRequests: readonly string[];
  /** Why embeddings requests were answered 400, in order. */
  readonly rejectedEmbeddings: readonly string[];
  /** Appends replies to the script. */
  enqueue(...replies: ScriptedReply[]): void;
  /** Stops listening and destroys open connections; resolves when all are closed. */
  close(): Promise<void>;
}

const ENDPOINT = '/v1/chat/completions';
const DIALECTS: readonly StrictServerDialect[] = ['deepseek', 'gemini', 'openrouter'];

/**
 * Starts an HTTP server on 127.0.0.1 that speaks the OpenAI Chat Completions API
 * (`POST /v1/chat/completions`, streaming or not) and answers from a script. It rejects with
 * a 400, like the real API, every request `validateChatRequest` finds invalid, so tests prove
 * an agent sends conversations the real API would accept (with `dialect`, also every request
 * that provider rejects for reasoning not sent back). A request arriving after the script
 * ran out is answered 500 with a message saying so (and `x-should-retry: false`).
 *
 * It simulates OpenAI's prompt caching (see `OpenAIPromptCache`): every reply's usage has
 * `prompt_tokens_details.cached_tokens` (0 when nothing was cached), `prompt_tokens` is the
 * estimate `ceil(chars / 4)` of the tools' and messages' JSON unless the script sets usage,
 * and each answered request records its `cache` usage (see `cacheHitRatio`).
 *
 * @example
 * ```ts run
 * const server = await startStrictOpenAIServer({ script: ['Hello!'] });
 * try {
 *   const model = new OpenAIChatModel({ baseURL: server.baseURL, apiKey: 'test', model: 'test-model' });
 *   const agent = new ReActAgent({ name: 'assistant', sysPrompt: 'Be brief.', model });
 *   const reply = await lastValueFrom(agent.call(userMsg('Hi')));
 *   console.log(textOf(reply), server.requests.length); // "Hello!" 1
 * } finally {
 *   await server.close();
 * }
 * ```
 */
export async function startStrictOpenAIServer(
  options: StrictOpenAIServerOptions = {},
): Promise<StrictOpenAIServer> {
  checkOptions(
    options,
    optionNames<StrictOpenAIServerOptions>({
      script: true,
      port: true,
      model: true,
      dialect: true,
    }),
    'startStrictOpenAIServer',
  );
  const server = new LoopbackServer(options);
  await server.listen(options.port ?? 0);
  return server;
}

class LoopbackServer implements StrictOpenAIServer {
  readonly #http: Server;
  readonly #script: ScriptedReply[];
  readonly #model: string | undefined;
  readonly #dialect: ServerDialect | undefined;
  readonly #sockets = new Set<Socket>();
  readonly #open = new Set<Recording>();
  readonly #requests: Recording[] = [];
  readonly embeddingRequests: string[] = [];
  readonly rejectedEmbeddings: string[] = [];
  readonly #rejected: Recording[] = [];
  readonly #cache = new OpenAIPromptCache();
  #scripted: number;
  #answered = 0;
  #callIds = 0;
  #exchanges = 0;
  #port = 0;
  #closed: Promise<void> | undefined;

  constructor(options: StrictOpenAIServerOptions) {
    this.#script = [...(options.script ?? [])];
    this.#scripted = this.#script.length;
    this.#model = options.model;
    if (options.dialect !== undefined) {
      if (!DIALECTS.includes(options.dialect)) {
        throw new TypeError(
          `startStrictOpenAIServer: unknown dialect ${JSON.stringify(options.dialect)}; expected one of ${DIALECTS.join(', ')}.`,
        );
      }
      this.#dialect = new ServerDialect(options.dialect);
    }
    this.#http = createServer((req, res) => this.#handle(req, res));
    this.#http.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.once('close', () => this.#sockets.delete(socket));
    });
  }

  get baseURL(): string {
    return `http://127.0.0.1:${this.#port}/v1`;
  }

  get requests(): readonly RecordedRequest[] {
    return this.#requests;
  }

  get rejected(): readonly RecordedRequest[] {
    return this.#rejected;
  }

  enqueue(...replies: ScriptedReply[]): void {
    this.#script.push(...replies);
    this.#scripted += replies.length;
  }

  listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#http.once('error', reject);
      this.#http.listen(port, '127.0.0.1', () => {
        this.#http.off('error', reject);
        const address = this.#http.address();
        this.#port = typeof address === 'object' && address ? address.port : port;
        resolve();
      });
    });
  }

  close(): Promise<void> {
    this.#closed ??= new Promise((resolve) => {
      this.#http.close(() => resolve());
      for (const recording of this.#open) recording.reset();
      for (const socket of this.#sockets) socket.destroy();
    });
    return this.#closed;
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const requestId = `req_${++this.#exchanges}`;
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (req.method === 'POST' && path === EMBEDDINGS_ENDPOINT) {
      readBody(req).then(
        (text) => {
          this.embeddingRequests.push(text);
          const problem = answerEmbeddings(res, requestId, text);
          if (problem !== undefined) this.rejectedEmbeddings.push(problem);
        },
        () => req.socket.destroy(),
      );
      return;
    }
    if (req.method !== 'POST' || path !== ENDPOINT) {
      req.resume();
      const message = `Unknown request URL: ${req.method} ${req.url}. The strict test server serves only POST ${ENDPOINT} and POST ${EMBEDDINGS_ENDPOINT}.`;
      sendJson({ res, requestId }, 404, errorBody(404, message, 'unknown_url'));
      return;
    }
    readBody(req).then(
      (text) => this.#exchange(req, res, requestId, text),
      () => req.socket.destroy(),
    );
  }

  #exchange(req: IncomingMessage, res: ServerResponse, requestId: string, text: string): void {
    let parsed: unknown;
    let problem: string | undefined;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      problem = `body: could not parse the JSON body of your request (${(error as Error).message})`;
    }
    problem ??= validateChatRequest(parsed);
    if (!problem && this.#dialect) {
      problem = this.#dialect.check((parsed as { messages: Record<string, unknown>[] }).messages);
    }
    const body: JsonObject = isJsonObject(parsed) ? parsed : {};
    const recording = new Recording(body, req.headers, res);
    this.#requests.push(recording);
    this.#open.add(recording);
    void recording.done.then(() => this.#open.delete(recording));
    if (problem) {
      recording.rejection = problem;
      this.#rejected.push(recording);
      sendJson({ res, requestId }, 400, errorBody(400, problem));
      return;
    }
    this.#answer(recording, res, requestId);
  }

  #answer(recording: Recording, res: ServerResponse, requestId: string): void {
    const { body, signal } = recording;
    const exchange = { res, requestId, signal, reset: () => recording.reset() };
    const reply = this.#script.shift();
    const number = this.#requests.length;
    if (reply === undefined) {
      const message = scriptExhaustedMessage(
        'StrictOpenAIServer',
        number,
        this.#scripted,
        body.messages,
      );
      sendJson(exchange, 500, errorBody(500, message), { 'x-should-retry': 'false' });
      return;
    }
    let plan: ReturnType<typeof planTurn>;
    let wire: DialectWire | undefined;
    try {
      const turn = resolveReply(reply, fromWireRequest(body, signal), this.#answered++);
      plan = planTurn(turn, body.messages, () => `call_${++this.#callIds}`);
      // A request that reaches the model is cached (and read from the cache) even when its
      // reply then fails; one refused before it (a scripted status) is not.
      if (!(turn.error && turn.error.afterChunks === undefined)) {
        recording.cache = this.#cache.serve(body);
        if (turn.usage === undefined) {
          const inputTokens = recording.cache.inputTokens;
          const outputTokens = plan.usage.outputTokens;
          plan = {
            ...plan,
            usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
          };
        }
      }
      if (this.#dialect) ({ plan, wire } = this.#dialect.shape(plan, this.#answered));
    } catch (error) {
      const message = `StrictOpenAIServer: the script function for request #${number} threw: ${(error as Error).message}`;
      sendJson(exchange, 500, errorBody(500, message), { 'x-should-retry': 'false' });
      return;
    }
    const options = body.stream_options;
    const shape = {
      stream: recording.stream,
      includeUsage: isJsonObject(options) && options.include_usage === true,
      cachedTokens: Math.min(recording.cache?.cachedTokens ?? 0, plan.usage.inputTokens),
      meta: {
        id: `chatcmpl-${requestId.slice(4)}`,
        created: Math.floor(Date.now() / 1000),
        model: this.#model ?? String(body.model),
      },
      ...(wire && { wire }),
    };
    serveTurn(exchange, plan, shape).catch(() => {
      // An aborted exchange is over already; anything else leaves a half-written response.
      if (!signal.aborted) recording.reset();
    });
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.once('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.once('error', reject);
    req.once('close', () => {
      if (!req.complete)
        reject(new Error('The client closed the connection before sending the body.'));
    });
  });
}
