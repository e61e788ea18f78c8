import Anthropic from '@anthropic-ai/sdk';
import type {
  MessageCreateParamsStreaming,
  ThinkingConfigParam,
} from '@anthropic-ai/sdk/resources/messages';
import {
  type ChatChunk,
  type ChatModel,
  type ChatRequest,
  checkOptions,
  InvalidArgumentError,
  type JsonObject,
  ModelError,
} from '@rxagent/core';
import {
  type AttemptSink,
  createNodeFetch,
  DirectRoutes,
  type RetryConfig,
  runWithRetries,
} from '@rxagent/react-agent';
import { Observable } from 'rxjs';
import { MessagesAttempt, type MessagesAttemptSettings } from './messagesAttempt.js';
import { messagesRoute } from './messagesRoute.js';
import { anthropicRetryAfter } from './toAnthropicError.js';
import { type MessagesRequestSettings, toMessagesRequest } from './toMessagesRequest.js';

/** Options of `AnthropicChatModel`; unset fields fall back to `ANTHROPIC_*` environment variables. */
export interface AnthropicChatModelOptions {
  /** The model name (`claude-sonnet-4-6`, …); default `ANTHROPIC_MODEL`. Required one way or the other. */
  model?: string;
  /** Default `ANTHROPIC_API_KEY`; with only a `baseURL` (a local server) a placeholder is sent. */
  apiKey?: string;
  /** The API's address without `/v1` (default `ANTHROPIC_BASE_URL`, else `https://api.anthropic.com`). */
  baseURL?: string;
  /** `max_tokens` of every request unless the request sets its own (default 4096; the API requires one). */
  maxTokens?: number;
  /** The API's thinking setting, sent as given: `{ type: 'enabled', budget_tokens: 2048 }`. */
  thinking?: ThinkingConfigParam;
  /**
   * Prompt caching (default false): `cache_control` on the last system block, the last tool,
   * and the latest messages, rolling forward with the conversation (at most 4 breakpoints).
   */
  cache?: boolean;
  temperature?: number;
  /** Retries of a transient failure (429, 5xx, 529 overloaded) before the first chunk (default 2). */
  maxRetries?: number;
  /** Milliseconds to wait for the response headers and between two events (default 60 000). */
  timeoutMs?: number;
  /** The longest wait a server's `retry-after` may impose before a retry (default 30 000). */
  maxRetryAfterMs?: number;
  /** First backoff between retries, doubled per retry, with jitter (default 500). */
  retryBaseDelayMs?: number;
  /** A preconfigured client (create it with `maxRetries: 0`: this model retries itself). */
  client?: Anthropic;
  /** The SDK's transport (default: a shared keep-alive `node:http` transport, `createNodeFetch()`). */
  fetch?: typeof fetch;
  defaultHeaders?: Record<string, string>;
  /** Body fields sent with every request (`top_k`, `metadata`, …). */
  extraBody?: JsonObject;
}

const OPTION_KEYS = [
  'model',
  'apiKey',
  'baseURL',
  'maxTokens',
  'thinking',
  'cache',
  'temperature',
  'maxRetries',
  'timeoutMs',
  'maxRetryAfterMs',
  'retryBaseDelayMs',
  'client',
  'fetch',
  'defaultHeaders',
  'extraBody',
] as const;

const DEFAULT_BASE_URL = 'https://api.anthropic.com';

/**
 * A `ChatModel` over Anthropic's Messages API (streamed), with `@anthropic-ai/sdk`: native
 * tool use (parallel calls), the system prompt as `system`, thinking blocks kept with their
 * `signature` and `redacted_thinking` blocks sent back unchanged, prompt caching (`cache`),
 * usage with `cacheReadTokens` and `cacheWriteTokens`. Transient failures (429, 5xx, 529
 * overloaded, an `overloaded_error` event, timeouts, connection errors) are retried with
 * backoff, but only before the first chunk has been emitted.
 *
 * @example
 * ```ts
 * const model = new AnthropicChatModel({ model: 'claude-sonnet-4-6', cache: true });
 * const thinker = new AnthropicChatModel({
 *   model: 'claude-sonnet-4-6',
 *   maxTokens: 8192,
 *   thinking: { type: 'enabled', budget_tokens: 4096 },
 * });
 * ```
 */
export class AnthropicChatModel implements ChatModel {
  readonly modelName: string;
  readonly #settings: MessagesRequestSettings;
  readonly #retry: RetryConfig;
  readonly #attempt: MessagesAttemptSettings;

  /**
   * @throws TypeError for an unknown option; InvalidArgumentError when no model name (or no
   * API key for api.anthropic.com) is found, or for a bad number.
   */
  constructor(options: AnthropicChatModelOptions = {}) {
    checkOptions(options, OPTION_KEYS, 'AnthropicChatModel');
    const model = options.model || process.env['ANTHROPIC_MODEL'];
    if (!model) {
      throw new InvalidArgumentError(
        'AnthropicChatModel needs a model name: pass { model } or set the ANTHROPIC_MODEL environment variable.',
      );
    }
    this.modelName = model;
    const timeoutMs = positive('timeoutMs', options.timeoutMs ?? 60_000);
    this.#retry = {
      maxRetries: nonNegativeInteger('maxRetries', options.maxRetries ?? 2),
      baseDelayMs: nonNegative('retryBaseDelayMs', options.retryBaseDelayMs ?? 500),
      ...(options.maxRetryAfterMs !== undefined && {
        maxRetryAfterMs: nonNegative('maxRetryAfterMs', options.maxRetryAfterMs),
      }),
      isRetryable: (error) => error instanceof ModelError && error.retryable,
      retryAfterMs: anthropicRetryAfter,
    };
    const own = options.client === undefined;
    const transport = options.fetch ?? sharedNodeFetch();
    const client = options.client ?? createClient(options, timeoutMs, transport);
    // The model's own client has the same headers on every request: they are asked of the
    // SDK once and each request goes straight to the transport.
    const routes = own
      ? new DirectRoutes(() => messagesRoute(client, transport, timeoutMs))
      : undefined;
    this.#attempt = { client, model, baseURL: client.baseURL, timeoutMs, routes };
    const thinking = options.thinking;
    const budget = thinking?.type === 'enabled' ? thinking.budget_tokens : 0;
    this.#settings = {
      model,
      maxTokens: positiveInteger('maxTokens', options.maxTokens ?? Math.max(4096, budget + 4096)),
      cache: options.cache ?? false,
      ...(thinking !== undefined && { thinking }),
      ...(options.temperature !== undefined && { temperature: options.temperature }),
      ...(options.extraBody && { extraBody: options.extraBody }),
    };
  }

  /**
   * Sends one streamed Messages API request per subscription (cold) and emits its chunks in
   * order, then completes after `message_stop`. Errors with a `ModelError` (status, the
   * API's error type and message, `retryable`; `cause` is the SDK error) once retries are
   * spent, also for an `error` event mid-stream, a stream cut before `message_stop`, a
   * malformed event, or `timeoutMs` without an event; with an `AbortError` when
   * `request.signal` aborts. Unsubscribing, or aborting `request.signal`, closes the HTTP
   * request at once.
   */
  stream(request: ChatRequest): Observable<ChatChunk> {
    return new Observable<ChatChunk>((subscriber) =>
      runWithRetries(subscriber, { ...this.#retry, signal: request.signal }, (sink) =>
        this.#start(request, sink),
      ),
    );
  }

  #start(request: ChatRequest, sink: AttemptSink<ChatChunk>): () => void {
    let params: MessageCreateParamsStreaming;
    try {
      params = toMessagesRequest(request, this.#settings);
    } catch (error) {
      sink.error(error);
      return () => {};
    }
    return MessagesAttempt.start(this.#attempt, params, sink, request.signal);
  }
}

function createClient(
  options: AnthropicChatModelOptions,
  timeoutMs: number,
  transport: typeof fetch,
): Anthropic {
  const baseURL = options.baseURL || process.env['ANTHROPIC_BASE_URL'] || undefined;
  const apiKey =
    options.apiKey || process.env['ANTHROPIC_API_KEY'] || (baseURL ? 'not-needed' : undefined);
  if (!apiKey) {
    throw new InvalidArgumentError(
      'AnthropicChatModel needs an API key for api.anthropic.com: pass { apiKey } or set ANTHROPIC_API_KEY (a local server needs only { baseURL }).',
    );
  }
  return new Anthropic({
    apiKey,
    baseURL: baseURL ?? DEFAULT_BASE_URL,
    maxRetries: 0,
    timeout: timeoutMs,
    logLevel: 'off',
    fetch: transport,
    ...(options.defaultHeaders && { defaultHeaders: options.defaultHeaders }),
  });
}

let defaultFetch: typeof fetch | undefined;

function sharedNodeFetch(): typeof fetch {
  defaultFetch ??= createNodeFetch();
  return defaultFetch;
}

function positive(name: string, value: number): number {
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
    throw new InvalidArgumentError(
      `AnthropicChatModel: ${name} must be a positive number, got ${String(value)}.`,
    );
  }
  return value;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new InvalidArgumentError(
      `AnthropicChatModel: ${name} must be a positive integer, got ${String(value)}.`,
    );
  }
  return value;
}

function nonNegative(name: string, value: number): number {
  if (typeof value !== 'number' || !(value >= 0) || !Number.isFinite(value)) {
    throw new InvalidArgumentError(
      `AnthropicChatModel: ${name} must be a non-negative number, got ${String(value)}.`,
    );
  }
  return value;
}

function nonNegativeInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new InvalidArgumentError(
      `AnthropicChatModel: ${name} must be a non-negative integer, got ${String(value)}.`,
    );
  }
  return value;
}
