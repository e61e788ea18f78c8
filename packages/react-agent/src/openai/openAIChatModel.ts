import type { ChatChunk, ChatModel, ChatRequest, JsonObject } from '@rxagent/core';
import { checkOptions, InvalidArgumentError, optionNames } from '@rxagent/core';
import type OpenAI from 'openai';
import { Observable } from 'rxjs';
import { type AttemptSettings, ChatAttempt, type ChatParams } from './chatAttempt.js';
import { ChatClient } from './chatClient.js';
import { checkBaseURL } from './checkBaseURL.js';
import { DirectRoutes, directRoute } from './directRoute.js';
import { createNodeFetch } from './nodeFetch.js';
import { nonNegative, nonNegativeInteger, positive } from './optionChecks.js';
import { type AttemptSink, type RetryConfig, runWithRetries } from './retry.js';
import { type ChatRequestSettings, defaultMaxTokensField, toChatRequest } from './toChatRequest.js';
import { isRetryableModelError, retryAfterOf } from './toModelError.js';

/** Options of `OpenAIChatModel`; unset fields fall back to `OPENAI_*` environment variables. */
export interface OpenAIChatModelOptions {
  /** The model name; default `OPENAI_MODEL`. Required one way or the other. */
  model?: string;
  /** Default `OPENAI_API_KEY`; with only a `baseURL` (a local server) a placeholder is sent. */
  apiKey?: string;
  /**
   * An OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp) with its scheme,
   * `http://localhost:8000/v1`; default `OPENAI_BASE_URL`. A value that is not an http(s) URL
   * is a TypeError at construction.
   */
  baseURL?: string;
  /** Stream chunks as they are generated (default true). */
  stream?: boolean;
  temperature?: number;
  maxTokens?: number;
  /** Which field carries `maxTokens`; default `max_completion_tokens` for OpenAI and Azure, `max_tokens` elsewhere. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** Retries of a transient failure before the first chunk (default 2). */
  maxRetries?: number;
  /**
   * Milliseconds to wait for the response headers and, when streaming, between two chunks;
   * without streaming, for the whole response (default 60 000).
   */
  timeoutMs?: number;
  /**
   * Milliseconds one attempt may take from sending the request to the last chunk, however
   * steadily chunks arrive (default: unbounded). `timeoutMs` alone never stops a server that
   * trickles a chunk every few seconds forever.
   */
  requestTimeoutMs?: number;
  /** The longest wait a server's `retry-after` header may impose before a retry (default 30 000). */
  maxRetryAfterMs?: number;
  /** First backoff between retries, doubled per retry, with jitter (default 500). */
  retryBaseDelayMs?: number;
  /**
   * A preconfigured client (create it with `maxRetries: 0`: this model retries itself). Every
   * request then goes through the SDK, so its hooks, auth and Azure routing apply to each.
   */
  client?: OpenAI;
  /**
   * The SDK's transport. Default: a shared keep-alive `node:http`/`node:https` transport
   * (`createNodeFetch()`), which costs less CPU per request than Node's built-in `fetch`;
   * pass `globalThis.fetch` to use that, or any other `fetch`.
   */
  fetch?: typeof fetch;
  defaultHeaders?: Record<string, string>;
  /** Body fields sent with every request (provider knobs such as `top_k`). */
  extraBody?: JsonObject;
  /**
   * Sent as `prompt_cache_key` with every request: OpenAI routes requests with the same key
   * to the same prompt cache, so a session (or a tenant) that passes one stable key keeps
   * hitting its cache. Leave unset for servers that do not know the field.
   */
  promptCacheKey?: string;
}

const OPENAI_CHAT_MODEL_KEYS = optionNames<OpenAIChatModelOptions>({
  model: true,
  apiKey: true,
  baseURL: true,
  stream: true,
  temperature: true,
  maxTokens: true,
  maxTokensField: true,
  maxRetries: true,
  timeoutMs: true,
  requestTimeoutMs: true,
  maxRetryAfterMs: true,
  retryBaseDelayMs: true,
  client: true,
  fetch: true,
  defaultHeaders: true,
  extraBody: true,
  promptCacheKey: true,
});

/**
 * A `ChatModel` over the Chat Completions API of OpenAI or any compatible server, using
 * native function calling. Transient failures (429, 5xx, timeouts, connection errors) are
 * retried with backoff, but only before the first chunk has been emitted.
 *
 * With a client of its own (no `client` option), a streamed request goes straight to the
 * transport with the URL and headers the openai SDK built for that client once; the reply's
 * event stream is decoded byte by byte as it arrives, without the SDK's `Stream`. Requests
 * without streaming, and every request of a `client` passed in, go through the SDK.
 *
 * Reasoning a server wants back is kept: the chunks say which field carried the reasoning
 * text (`reasoning_content` or `reasoning`), and carry OpenRouter's `reasoning_details` and
 * each tool call's `extra_content` (Gemini's thought signature); the ReAct loop stores them
 * on the reply's blocks and sends them back to this model (see `formatMessages`).
 *
 * @example
 * ```ts
 * const model = new OpenAIChatModel({ model: 'gpt-4o-mini' });
 * const local = new OpenAIChatModel({ baseURL: 'http://localhost:11434/v1', model: 'qwen3' });
 * ```
 */
export class OpenAIChatModel implements ChatModel {
  readonly modelName: string;
  readonly #settings: ChatRequestSettings;
  /** The retry policy and how errors are read, shared by every call. */
  readonly #retry: RetryConfig;
  readonly #timeoutMs: number;
  readonly #attemptSettings: AttemptSettings;

  /**
   * @throws InvalidArgumentError when no model name (or no API key for OpenAI) is found;
   * TypeError for an unknown option (`baseUrl` → "did you mean baseURL?").
   */
  constructor(options: OpenAIChatModelOptions = {}) {
    checkOptions(options, OPENAI_CHAT_MODEL_KEYS, 'OpenAIChatModel');
    const model = options.model || process.env['OPENAI_MODEL'];
    if (!model) {
      throw new InvalidArgumentError(
        'OpenAIChatModel needs a model name: pass { model } or set the OPENAI_MODEL environment variable.',
      );
    }
    this.modelName = model;
    this.#timeoutMs = positive('timeoutMs', options.timeoutMs ?? 60_000);
    const requestTimeoutMs =
      options.requestTimeoutMs === undefined
        ? undefined
        : positive('requestTimeoutMs', options.requestTimeoutMs);
    this.#retry = {
      maxRetries: nonNegativeInteger('maxRetries', options.maxRetries ?? 2),
      baseDelayMs: nonNegative('retryBaseDelayMs', options.retryBaseDelayMs ?? 500),
      ...(options.maxRetryAfterMs !== undefined && {
        maxRetryAfterMs: nonNegative('maxRetryAfterMs', options.maxRetryAfterMs),
      }),
      isRetryable: isRetryableModelError,
      retryAfterMs: retryAfterOf,
    };
    const fetchImpl = options.fetch ?? sharedNodeFetch();
    const client = options.client ?? this.#createClient(options, fetchImpl);
    this.#attemptSettings = {
      client,
      model,
      baseURL: client.baseURL,
      timeoutMs: this.#timeoutMs,
      requestTimeoutMs,
      // A client of our own sends the same headers every time: ask the SDK for them once.
      routes: options.client
        ? undefined
        : new DirectRoutes(() => directRoute(client, fetchImpl, this.#timeoutMs)),
    };
    this.#settings = {
      model,
      stream: options.stream ?? true,
      maxTokensField: options.maxTokensField ?? defaultMaxTokensField(this.#baseURLOption(options)),
      ...(options.temperature !== undefined && { temperature: options.temperature }),
      ...(options.maxTokens !== undefined && { maxTokens: options.maxTokens }),
      ...(options.extraBody && { extraBody: options.extraBody }),
      ...(options.promptCacheKey !== undefined && {
        promptCacheKey: cacheKey(options.promptCacheKey),
      }),
    };
  }

  /**
   * Sends one Chat Completions request per subscription (cold) and emits its chunks in order
   * (one chunk holding everything when not streaming), then completes. Errors with a
   * `ModelError` (status, server message, `retryable`; `cause` is the SDK error) once
   * retries are spent, also when a stream ends without a `finish_reason` (a cut stream),
   * when a 200 answer is not an event stream (a JSON error, an HTML page) or not a chat
   * completion, when a chunk is malformed or reports an error, or after `timeoutMs` /
   * `requestTimeoutMs`; or with an `AbortError` when `request.signal` aborts.
   * Unsubscribing, or aborting `request.signal`, closes the HTTP request at once.
   */
  stream(request: ChatRequest): Observable<ChatChunk> {
    return new Observable<ChatChunk>((subscriber) => this.#run(request, subscriber));
  }

  /**
   * One subscription of `stream`. Its own function, so that the attempt closure's context
   * (`body`) does not chain to the one holding `request`.
   */
  #run(request: ChatRequest, subscriber: AttemptSink<ChatChunk>): () => void {
    const body = new RetriedBody(request, this.#settings, this.#attemptSettings, this.#retry);
    // The request's signal beside the shared policy: no copy of the policy per request.
    return runWithRetries(
      subscriber,
      this.#retry,
      (sink) => this.#attempt(body, sink),
      body.signal,
    );
  }

  /** One request: the body is built at the first attempt, so a bad request errors (never throws). */
  #attempt(body: RetriedBody, sink: AttemptSink<ChatChunk>): () => void {
    let params: ChatParams | string;
    try {
      params = body.params();
    } catch (error) {
      sink.error(error);
      return () => {};
    }
    return ChatAttempt.start(this.#attemptSettings, params, sink, body.signal);
  }

  #baseURLOption(options: OpenAIChatModelOptions): string | undefined {
    if (options.client) return options.client.baseURL;
    if (options.baseURL) return checkBaseURL(options.baseURL, 'baseURL');
    const fromEnv = process.env['OPENAI_BASE_URL'];
    return fromEnv ? checkBaseURL(fromEnv, 'OPENAI_BASE_URL') : undefined;
  }

  #createClient(options: OpenAIChatModelOptions, fetchImpl: typeof fetch): OpenAI {
    const baseURL = this.#baseURLOption(options);
    const apiKey =
      options.apiKey || process.env['OPENAI_API_KEY'] || (baseURL ? 'not-needed' : undefined);
    if (!apiKey) {
      throw new InvalidArgumentError(
        'OpenAIChatModel needs an API key for api.openai.com: pass { apiKey } or set OPENAI_API_KEY (a local server needs only { baseURL }).',
      );
    }
    return new ChatClient({
      apiKey,
      maxRetries: 0,
      timeout: this.#timeoutMs,
      logLevel: 'off',
      ...(baseURL && { baseURL }),
      fetch: fetchImpl,
      ...(options.defaultHeaders && { defaultHeaders: options.defaultHeaders }),
    });
  }
}

/**
 * The body of one `stream()` request across its attempts: the caller's request until the
 * first attempt builds the body, then only what a retry sends again, so a retry sends the
 * same bytes whatever the caller changes meanwhile. A body made only of frozen parts (the
 * default formatter's messages, a toolkit's schemas) is kept as it is, with an array of
 * messages of its own: it shares its messages with memory's wire forms, so a parked call
 * holds a few pointers where the JSON of its whole request would take kilobytes. Any other
 * streamed request of the model's own client keeps the JSON it sent; one the SDK sends
 * keeps its parameters; with no retries left to make, nothing is kept.
 */
class RetriedBody {
  readonly signal: AbortSignal | undefined;
  #request: ChatRequest | undefined;
  #sent: ChatParams | string | undefined;

  constructor(
    request: ChatRequest,
    private readonly settings: ChatRequestSettings,
    private readonly attempt: AttemptSettings,
    private readonly retry: RetryConfig,
  ) {
    this.#request = request;
    this.signal = request.signal;
  }

  /** The body of the next attempt: the SDK's parameters, or a JSON string along a direct route. */
  params(): ChatParams | string {
    if (this.#sent !== undefined) return this.#sent;
    // A request toChatRequest rejects stays, so every attempt fails alike.
    const params = toChatRequest(this.#request!, this.settings);
    this.#request = undefined;
    if (this.retry.maxRetries === 0) return params;
    if (params.stream !== true || !this.attempt.routes) {
      this.#sent = params;
      return params;
    }
    if (onlyFrozenParts(params)) {
      // Its own array: the caller's may still grow.
      this.#sent = { ...params, messages: [...params.messages] };
      return params;
    }
    let body: ChatParams | string = params;
    try {
      body = JSON.stringify(params);
    } catch {
      // Kept as it is: the attempt's own JSON.stringify fails it, as it always did.
    }
    this.#sent = body;
    return body;
  }
}

/**
 * Whether nothing of `params` can change before a retry: each message, each tool schema and
 * every other object in it frozen.
 */
function onlyFrozenParts(params: ChatParams): boolean {
  // for…in: no array of entries per request.
  for (const key in params) {
    const value = (params as unknown as Record<string, unknown>)[key];
    if (typeof value !== 'object' || value === null) continue;
    if (key === 'messages' || key === 'tools') {
      for (const item of value as readonly object[]) if (!Object.isFrozen(item)) return false;
    } else if (!Object.isFrozen(value)) return false;
  }
  return true;
}

let defaultFetch: typeof fetch | undefined;

/** One default transport for every model, so models talking to one server share connections. */
function sharedNodeFetch(): typeof fetch {
  defaultFetch ??= createNodeFetch();
  return defaultFetch;
}

function cacheKey(value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    throw new InvalidArgumentError(
      `OpenAIChatModel: promptCacheKey must be a non-empty string, got ${JSON.stringify(value) ?? String(value)}.`,
    );
  }
  return value;
}
