import { type ChatChunk, ModelError } from '@rxagent/core';
import type OpenAI from 'openai';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import { abortError } from './abortError.js';
import { type DirectRoutes, statusError } from './directRoute.js';
import { type AttemptTimeout, EventStreamAttempt } from './eventStreamAttempt.js';
import { fromChatChunk, fromChatCompletion } from './fromChatChunk.js';
import type { AttemptSink } from './retry.js';
import { type ModelErrorContext, toModelError } from './toModelError.js';

/** The request body of one attempt, streamed or not. */
export type ChatParams =
  | ChatCompletionCreateParamsStreaming
  | ChatCompletionCreateParamsNonStreaming;

/** What every attempt of one model shares: the client and the limits it enforces. */
export interface AttemptSettings extends ModelErrorContext {
  readonly client: OpenAI;
  readonly requestTimeoutMs: number | undefined;
  /**
   * Where streamed requests go without the SDK's request machinery, when the model made its
   * own client; without it (a client given by the caller, whose hooks, auth or Azure
   * routing may differ per request) the SDK sends every request.
   */
  readonly routes: DirectRoutes | undefined;
}

/**
 * One HTTP request of `OpenAIChatModel.stream` (`runWithRetries` starts one per attempt),
 * an `EventStreamAttempt` (its limits, abort and body reading). A streamed request goes
 * straight to the transport along the route the SDK built for the model's own client
 * (`DirectRoutes`: URL, auth and headers asked of the SDK once), or through the SDK for a
 * client the caller gave; either way a status error becomes the SDK's own error class. The
 * streamed reply is read without the SDK's `Stream`: each event's JSON goes through
 * `fromChatChunk`, and each chunk straight to the subscriber. The reply completes at
 * `[DONE]` once it has its finish reason. A request without streaming goes through the SDK,
 * its whole JSON reply bounded by the watchdog.
 */
export class ChatAttempt extends EventStreamAttempt<ChatChunk> {
  readonly #settings: AttemptSettings;
  #finished = false;
  #done = false;

  /**
   * Sends `params` and returns what stops the attempt; a string is the JSON of a streamed
   * request, sent along `settings.routes`.
   */
  static start(
    settings: AttemptSettings,
    params: ChatParams | string,
    subscriber: AttemptSink<ChatChunk>,
    outer: AbortSignal | undefined,
  ): () => void {
    if (outer?.aborted) {
      subscriber.error(abortError(outer.reason));
      return noop;
    }
    const attempt = new ChatAttempt(settings, subscriber, outer);
    attempt.#send(params);
    return () => attempt.teardown();
  }

  private constructor(
    settings: AttemptSettings,
    subscriber: AttemptSink<ChatChunk>,
    outer: AbortSignal | undefined,
  ) {
    super(settings, subscriber, outer);
    this.#settings = settings;
  }

  protected get replyFinished(): boolean {
    return this.#finished;
  }

  protected get where(): string {
    return `Model "${this.#settings.model}" at ${this.#settings.baseURL}`;
  }

  #send(params: ChatParams | string): void {
    const completions = this.#settings.client.chat.completions;
    const routes = this.#settings.routes;
    if (routes && (typeof params === 'string' || params.stream === true)) {
      this.sendAlong(routes, params, connectionError);
    } else if (typeof params === 'string') {
      // Never: the model serializes a body only for its own client's direct route.
      this.fail(new TypeError('A serialized chat request needs a direct route.'));
    } else if (params.stream === true) {
      completions
        .create(params, this.#sdkOptions())
        .asResponse()
        .then((response) => this.onResponse(response))
        .catch((error: unknown) => this.fail(error));
    } else {
      this.armWatchdog();
      completions
        .create(params, this.#sdkOptions())
        .then((completion) => {
          if (this.settled) return;
          if (this.aborted) return this.fail(undefined);
          this.sink.next(fromChatCompletion(completion));
          this.complete();
        })
        .catch((error: unknown) => this.fail(error));
    }
  }

  /** The SDK's options for one request: the attempt's own signal and the timeout. */
  #sdkOptions(): { signal: AbortSignal; timeout: number } {
    return { signal: this.newSignal(), timeout: this.#settings.timeoutMs };
  }

  protected statusError(response: Response): Promise<unknown> {
    return statusError(response);
  }

  protected onEvent(data: string, event: string | undefined): void {
    // After [DONE] the rest of the body is read (the connection is reused) but ignored.
    if (this.#done) return;
    if (data.startsWith('[DONE]')) {
      this.#done = true;
      if (this.#finished) this.replyComplete();
      return;
    }
    const json: unknown = JSON.parse(data);
    const error = (json as { error?: unknown } | null)?.error;
    // No status and no headers: an error reported mid-stream is never retried.
    if (error || event === 'error')
      throw new APIError(undefined, (error ?? json) as object, undefined, undefined);
    const chunk = fromChatChunk(json as never);
    if (!chunk) return;
    if (chunk.finishReason) this.#finished = true;
    this.sink.next(chunk);
  }

  protected toError(error: unknown): Error {
    return toModelError(error, this.#settings);
  }

  /** A stream that ended without a finish reason: cut, or a server that sent nothing. */
  protected cutStream(): ModelError {
    const { model, baseURL } = this.#settings;
    return new ModelError(
      `The stream from model "${model}" at ${baseURL} ended before the reply was complete (no finish_reason): the connection was cut or the server failed; try again.`,
      { retryable: true },
    );
  }

  protected abortError(reason: unknown): Error {
    return abortError(reason);
  }

  protected timeoutError(timeout: AttemptTimeout): Error {
    // As the SDK's own timeout reports it.
    if (timeout === 'headers') return toModelError(new APIConnectionTimeoutError(), this.#settings);
    const { model, baseURL, timeoutMs, requestTimeoutMs } = this.#settings;
    if (timeout === 'request') {
      return new ModelError(
        `Model "${model}" at ${baseURL} did not finish within requestTimeoutMs (${requestTimeoutMs} ms): raise requestTimeoutMs or ask for a shorter reply.`,
        { retryable: true },
      );
    }
    return new ModelError(
      `Model "${model}" at ${baseURL} sent nothing for ${timeoutMs} ms: raise timeoutMs or check that the server is not overloaded.`,
      { retryable: true },
    );
  }
}

/** As the SDK reports it: a connection that failed or was refused. */
function connectionError(cause: unknown): APIConnectionError {
  return new APIConnectionError({ cause: cause instanceof Error ? cause : undefined });
}

function noop(): void {}
