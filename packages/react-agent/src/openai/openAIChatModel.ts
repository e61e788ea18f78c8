import type { ChatChunk, ChatModel, ChatRequest, JsonObject } from '@rxagent/core';
import { InvalidArgumentError, ModelError } from '@rxagent/core';
import OpenAI from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import { Observable, type Subscriber } from 'rxjs';
import { abortError } from './abortError.js';
import { fromChatChunk, fromChatCompletion } from './fromChatChunk.js';
import { createNodeFetch } from './nodeFetch.js';
import { notAnEventStream } from './notAnEventStream.js';
import { nonNegative, nonNegativeInteger, positive } from './optionChecks.js';
import { type RetryPolicy, retryBeforeFirstValue } from './retry.js';
import { type ChatRequestSettings, defaultMaxTokensField, toChatRequest } from './toChatRequest.js';
import { isRetryableModelError, retryAfterOf, toModelError } from './toModelError.js';

/** Options of `OpenAIChatModel`; unset fields fall back to `OPENAI_*` environment variables. */
export interface OpenAIChatModelOptions {
  /** The model name; default `OPENAI_MODEL`. Required one way or the other. */
  model?: string;
  /** Default `OPENAI_API_KEY`; with only a `baseURL` (a local server) a placeholder is sent. */
  apiKey?: string;
  /** An OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp); default `OPENAI_BASE_URL`. */
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
  /** A preconfigured client (create it with `maxRetries: 0`: this model retries itself). */
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
}

/**
 * A `ChatModel` over the Chat Completions API of OpenAI or any compatible server, using
 * native function calling. Transient failures (429, 5xx, timeouts, connection errors) are
 * retried with backoff, but only before the first chunk has been emitted.
 *
 * @example
 * ```ts
 * const model = new OpenAIChatModel({ model: 'gpt-4o-mini' });
 * const local = new OpenAIChatModel({ baseURL: 'http://localhost:11434/v1', model: 'qwen3' });
 * ```
 */
export class OpenAIChatModel implements ChatModel {
  readonly modelName: string;
  readonly #client: OpenAI;
  readonly #settings: ChatRequestSettings;
  readonly #retry: RetryPolicy;
  readonly #timeoutMs: number;
  readonly #requestTimeoutMs: number | undefined;

  /** @throws InvalidArgumentError when no model name (or no API key for OpenAI) is found. */
  constructor(options: OpenAIChatModelOptions = {}) {
    const model = options.model || process.env['OPENAI_MODEL'];
    if (!model) {
      throw new InvalidArgumentError(
        'OpenAIChatModel needs a model name: pass { model } or set the OPENAI_MODEL environment variable.',
      );
    }
    this.modelName = model;
    this.#timeoutMs = positive('timeoutMs', options.timeoutMs ?? 60_000);
    this.#requestTimeoutMs =
      options.requestTimeoutMs === undefined
        ? undefined
        : positive('requestTimeoutMs', options.requestTimeoutMs);
    this.#retry = {
      maxRetries: nonNegativeInteger('maxRetries', options.maxRetries ?? 2),
      baseDelayMs: nonNegative('retryBaseDelayMs', options.retryBaseDelayMs ?? 500),
      ...(options.maxRetryAfterMs !== undefined && {
        maxRetryAfterMs: nonNegative('maxRetryAfterMs', options.maxRetryAfterMs),
      }),
    };
    this.#client = options.client ?? this.#createClient(options);
    this.#settings = {
      model,
      stream: options.stream ?? true,
      maxTokensField: options.maxTokensField ?? defaultMaxTokensField(this.#baseURLOption(options)),
      ...(options.temperature !== undefined && { temperature: options.temperature }),
      ...(options.maxTokens !== undefined && { maxTokens: options.maxTokens }),
      ...(options.extraBody && { extraBody: options.extraBody }),
    };
  }

  /**
   * Sends one Chat Completions request per subscription (cold) and emits its chunks in order
   * (one chunk holding everything when not streaming), then completes. Errors with a
   * `ModelError` (status, server message, `retryable`; `cause` is the SDK error) once
   * retries are spent, also when a stream ends without a `finish_reason` (a cut stream),
   * when a 200 answer is not an event stream (a JSON error, an HTML page) or not a chat
   * completion, when a chunk is malformed, or after `timeoutMs` / `requestTimeoutMs`; or with an `AbortError` when `request.signal` aborts. Unsubscribing,
   * or aborting `request.signal`, closes the HTTP request at once.
   */
  stream(request: ChatRequest): Observable<ChatChunk> {
    return this.#attempt(request).pipe(
      retryBeforeFirstValue({
        ...this.#retry,
        signal: request.signal,
        isRetryable: isRetryableModelError,
        retryAfterMs: retryAfterOf,
      }),
    );
  }

  /** One request per subscription; the retry operator resubscribes for each attempt. */
  #attempt(request: ChatRequest): Observable<ChatChunk> {
    return new Observable<ChatChunk>((subscriber) => {
      const outer = request.signal;
      // Built per attempt, inside the subscription, so a bad request errors (never throws).
      const params = toChatRequest(request, this.#settings);
      if (outer?.aborted) {
        subscriber.error(abortError(outer.reason));
        return;
      }
      const controller = new AbortController();
      const onOuterAbort = () => controller.abort(outer?.reason);
      outer?.addEventListener('abort', onOuterAbort, { once: true });
      let timedOut: 'gap' | 'request' | undefined;
      let settled = false;
      const deadline =
        this.#requestTimeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              timedOut = 'request';
              controller.abort();
            }, this.#requestTimeoutMs);
      // Until the response headers, the SDK's own timeout (set per request) bounds the wait;
      // from then on this watchdog bounds the body: the gap between two chunks, or the whole
      // JSON reply without streaming. A chunk only records the time (a timer per chunk costs
      // more than the chunk itself); the watchdog re-arms itself for the time left.
      let lastActivity = 0;
      let watchdog: ReturnType<typeof setTimeout> | undefined;
      const onChunk = () => {
        lastActivity = performance.now();
      };
      const check = () => {
        const idle = performance.now() - lastActivity;
        if (idle < this.#timeoutMs) {
          watchdog = setTimeout(check, this.#timeoutMs - idle);
          return;
        }
        timedOut ??= 'gap';
        controller.abort();
      };
      const armWatchdog = () => {
        if (controller.signal.aborted) return; // unsubscribed while the headers arrived
        lastActivity = performance.now();
        watchdog = setTimeout(check, this.#timeoutMs);
      };
      if (params.stream !== true) armWatchdog();
      this.#send(params, controller.signal, subscriber, onChunk, armWatchdog).then(
        () => {
          settled = true;
          // The v6 stream iterator ends quietly when aborted: a cut stream is not a complete one.
          if (controller.signal.aborted) subscriber.error(this.#abortOutcome(timedOut, outer));
          else subscriber.complete();
        },
        (error: unknown) => {
          settled = true;
          if (controller.signal.aborted) subscriber.error(this.#abortOutcome(timedOut, outer));
          else subscriber.error(toModelError(error, this.#errorContext()));
        },
      );
      return () => {
        clearTimeout(watchdog);
        clearTimeout(deadline);
        outer?.removeEventListener('abort', onOuterAbort);
        // Aborting a finished request would only cost a DOMException per request (and the SDK
        // and fetch would each react to it): abort only a request still in flight.
        if (!settled) controller.abort();
      };
    });
  }

  async #send(
    params: Params,
    signal: AbortSignal,
    subscriber: Subscriber<ChatChunk>,
    onChunk: () => void,
    onHeaders: () => void,
  ) {
    const options = { signal, timeout: this.#timeoutMs };
    if (params.stream === true) {
      const { data: stream, response } = await this.#client.chat.completions
        .create(params, options)
        .withResponse();
      onHeaders();
      const type = response.headers.get('content-type') ?? '';
      // Servers that answer a stream request with a JSON error or an HTML page still say 200.
      if (/json|html/i.test(type)) {
        const { model, baseURL } = this.#errorContext();
        throw await notAnEventStream(response, type, `Model "${model}" at ${baseURL}`);
      }
      let finished = false;
      for await (const chunk of stream) {
        onChunk();
        const mapped = fromChatChunk(chunk);
        if (!mapped) continue;
        if (mapped.finishReason) finished = true;
        subscriber.next(mapped);
      }
      if (!finished && !signal.aborted) throw this.#cutStream();
    } else {
      const completion = await this.#client.chat.completions.create(params, options);
      subscriber.next(fromChatCompletion(completion));
    }
  }

  /** A stream that ended without a finish reason: cut, or a server that sent nothing. */
  #cutStream(): ModelError {
    const { model, baseURL } = this.#errorContext();
    return new ModelError(
      `The stream from model "${model}" at ${baseURL} ended before the reply was complete (no finish_reason): the connection was cut or the server failed; try again.`,
      { retryable: true },
    );
  }

  #abortOutcome(timedOut: 'gap' | 'request' | undefined, outer: AbortSignal | undefined): Error {
    if (!timedOut) return abortError(outer?.reason);
    const { model, baseURL, timeoutMs } = this.#errorContext();
    if (timedOut === 'request') {
      return new ModelError(
        `Model "${model}" at ${baseURL} did not finish within requestTimeoutMs (${this.#requestTimeoutMs} ms): raise requestTimeoutMs or ask for a shorter reply.`,
        { retryable: true },
      );
    }
    return new ModelError(
      `Model "${model}" at ${baseURL} sent nothing for ${timeoutMs} ms: raise timeoutMs or check that the server is not overloaded.`,
      { retryable: true },
    );
  }

  #errorContext() {
    return { model: this.modelName, baseURL: this.#client.baseURL, timeoutMs: this.#timeoutMs };
  }

  #baseURLOption(options: OpenAIChatModelOptions): string | undefined {
    return options.client
      ? options.client.baseURL
      : options.baseURL || process.env['OPENAI_BASE_URL'];
  }

  #createClient(options: OpenAIChatModelOptions): OpenAI {
    const baseURL = this.#baseURLOption(options);
    const apiKey =
      options.apiKey || process.env['OPENAI_API_KEY'] || (baseURL ? 'not-needed' : undefined);
    if (!apiKey) {
      throw new InvalidArgumentError(
        'OpenAIChatModel needs an API key for api.openai.com: pass { apiKey } or set OPENAI_API_KEY (a local server needs only { baseURL }).',
      );
    }
    return new OpenAI({
      apiKey,
      maxRetries: 0,
      timeout: this.#timeoutMs,
      logLevel: 'off',
      ...(baseURL && { baseURL }),
      fetch: options.fetch ?? sharedNodeFetch(),
      ...(options.defaultHeaders && { defaultHeaders: options.defaultHeaders }),
    });
  }
}

type Params = ChatCompletionCreateParamsStreaming | ChatCompletionCreateParamsNonStreaming;

let defaultFetch: typeof fetch | undefined;

/** One default transport for every model, so models talking to one server share connections. */
function sharedNodeFetch(): typeof fetch {
  defaultFetch ??= createNodeFetch();
  return defaultFetch;
}
