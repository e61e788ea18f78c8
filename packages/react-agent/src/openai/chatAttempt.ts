import { type ChatChunk, ModelError } from '@rxagent/core';
import type OpenAI from 'openai';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import { abortError } from './abortError.js';
import { type DirectRoute, type DirectRoutes, statusError } from './directRoute.js';
import { EventStreamDecoder } from './eventStreamDecoder.js';
import { fromChatChunk, fromChatCompletion } from './fromChatChunk.js';
import { responseHeader } from './nodeResponse.js';
import { notAnEventStream } from './notAnEventStream.js';
import { type BodySink, readBody } from './readBody.js';
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

type TimedOut = 'headers' | 'gap' | 'request' | undefined;

/**
 * One HTTP request of `OpenAIChatModel.stream` (`runWithRetries` starts one per attempt). A streamed request goes straight to the transport along
 * the route the SDK built for the model's own client (`DirectRoutes`: URL, auth and headers
 * asked of the SDK once), or through the SDK for a client the caller gave; either way a
 * status error becomes the SDK's own error class. The streamed reply is read without the
 * SDK's `Stream`: the body's bytes go through `EventStreamDecoder`, each event's JSON
 * through `fromChatChunk`, and each chunk straight to the subscriber, with no async iterator
 * or promise per chunk. A request without streaming goes through the SDK.
 *
 * The wait for the response headers is bounded by `timeoutMs` (the SDK's per-request
 * timeout when the SDK sends it); from then on a watchdog bounds the body: the gap between two events (`timeoutMs`; bytes that never
 * complete an event do not count), or the whole JSON reply without streaming. An event only
 * records the time (a timer per event would cost more than the event); the watchdog re-arms
 * itself for the time left. `requestTimeoutMs` bounds the whole attempt. Unsubscribing, or
 * aborting the request's signal, ends the attempt and aborts the request at once.
 */
export class ChatAttempt implements BodySink {
  readonly #settings: AttemptSettings;
  readonly #subscriber: AttemptSink<ChatChunk>;
  readonly #outer: AbortSignal | undefined;
  /** Whether this attempt aborted its request (unsubscribed, timed out, or the caller aborted). */
  #aborted = false;
  /** Aborts the request in flight; set when it is sent. */
  #abortRequest: ((reason?: unknown) => void) | undefined;
  #timedOut: TimedOut;
  #settled = false;
  #headersSeen = false;
  #finished = false;
  #done = false;
  /** Completed at `[DONE]`, the rest of the body still being read (and its watchdog on). */
  #draining = false;
  #lastActivity = 0;
  #watchdog: ReturnType<typeof setTimeout> | undefined;
  #deadline: ReturnType<typeof setTimeout> | undefined;
  #decoder: EventStreamDecoder | undefined;
  #stopReading: (() => void) | undefined;

  /** Sends `params` and returns what stops the attempt. */
  static start(
    settings: AttemptSettings,
    params: ChatParams,
    subscriber: AttemptSink<ChatChunk>,
    outer: AbortSignal | undefined,
  ): () => void {
    if (outer?.aborted) {
      subscriber.error(abortError(outer.reason));
      return noop;
    }
    const attempt = new ChatAttempt(settings, subscriber, outer);
    attempt.#send(params);
    return () => attempt.#teardown();
  }

  private constructor(
    settings: AttemptSettings,
    subscriber: AttemptSink<ChatChunk>,
    outer: AbortSignal | undefined,
  ) {
    this.#settings = settings;
    this.#subscriber = subscriber;
    this.#outer = outer;
    outer?.addEventListener('abort', this.#onOuterAbort, { once: true });
    if (settings.requestTimeoutMs !== undefined) {
      // A closure only when there is a deadline (most models set none).
      this.#deadline = setTimeout(() => this.#onDeadline(), settings.requestTimeoutMs);
    }
  }

  /** Each chunk of the streamed body (`BodySink`). */
  bytes(chunk: Uint8Array): void {
    this.#decoder!.push(chunk);
  }

  /** The end of the streamed body, or the error that ended it (`BodySink`). */
  end(error?: unknown): void {
    if (this.#draining) clearTimeout(this.#watchdog);
    this.#decoder?.end();
    if (error !== undefined) this.#fail(error);
    else if (!this.#finished && !this.#aborted) this.#fail(this.#cutStream());
    else this.#complete();
  }

  #send(params: ChatParams): void {
    const completions = this.#settings.client.chat.completions;
    const routes = this.#settings.routes;
    if (params.stream === true && routes) {
      const route = routes.get();
      if (route instanceof Promise) {
        route.then(
          (built) => this.#sendDirect(built, params),
          (error: unknown) => this.#fail(error),
        );
      } else this.#sendDirect(route, params);
    } else if (params.stream === true) {
      completions
        .create(params, this.#sdkOptions())
        .asResponse()
        .then((response) => this.#onResponse(response))
        .catch((error: unknown) => this.#fail(error));
    } else {
      this.#armWatchdog();
      completions
        .create(params, this.#sdkOptions())
        .then((completion) => {
          if (this.#settled) return;
          if (this.#aborted) return this.#fail(undefined);
          this.#subscriber.next(fromChatCompletion(completion));
          this.#complete();
        })
        .catch((error: unknown) => this.#fail(error));
    }
  }

  /** The SDK's options for one request: the attempt's own signal and the timeout. */
  #sdkOptions(): { signal: AbortSignal; timeout: number } {
    return { signal: this.#newSignal(), timeout: this.#settings.timeoutMs };
  }

  /** A signal that aborting this attempt aborts. */
  #newSignal(): AbortSignal {
    const controller = new AbortController();
    this.#abortRequest = (reason) => controller.abort(reason);
    return controller.signal;
  }

  /**
   * Sends a streamed request along `route`, bounding the wait for headers by `timeoutMs`.
   * On `createNodeFetch` the request is aborted through its own handle, with no
   * `AbortController` (and no listener on it) per request.
   */
  #sendDirect(route: DirectRoute, params: ChatParams): void {
    if (this.#settled) return;
    let body: string;
    try {
      body = JSON.stringify(params);
    } catch (error) {
      this.#fail(error);
      return;
    }
    this.#armWatchdog();
    const init = { method: 'POST', headers: route.headers as [string, string][], body };
    const abortable = route.sendAbortable?.(route.url, init);
    if (abortable) this.#abortRequest = abortable.abort;
    const response = abortable
      ? abortable.response
      : route.fetch(route.url, { ...init, signal: this.#newSignal() });
    response
      .then(
        (response) => this.#onDirectResponse(response),
        // As the SDK reports it: a connection that failed or was refused.
        (error: unknown) => {
          throw new APIConnectionError({ cause: error instanceof Error ? error : undefined });
        },
      )
      .catch((error: unknown) => this.#fail(error));
  }

  async #onDirectResponse(response: Response): Promise<void> {
    if (this.#settled) return; // ended meanwhile: the request was aborted, its body with it
    if (!response.ok) {
      this.#headersSeen = true;
      throw await statusError(response);
    }
    return this.#onResponse(response);
  }

  async #onResponse(response: Response): Promise<void> {
    if (this.#settled) return;
    this.#headersSeen = true;
    this.#armWatchdog();
    const type = responseHeader(response, 'content-type') ?? '';
    // Servers that answer a stream request with a JSON error or an HTML page still say 200.
    if (/json|html/i.test(type)) {
      const { model, baseURL } = this.#settings;
      throw await notAnEventStream(response, type, `Model "${model}" at ${baseURL}`);
    }
    // The event callback is made with the decoder: a request still waiting for its headers
    // (a parked call) holds neither.
    this.#decoder = new EventStreamDecoder((data, event) => this.#onEvent(data, event));
    this.#stopReading = readBody(response, this);
  }

  #onEvent(data: string, event: string | undefined): void {
    // Whole events, not bytes, count as activity: a byte trickle is not a working server.
    this.#lastActivity = performance.now();
    // After [DONE] the rest of the body is read (the connection is reused) but ignored.
    if (this.#done) return;
    if (data.startsWith('[DONE]')) {
      this.#done = true;
      // A finished reply is complete now, not at the body's end, which may come in a later
      // packet (a server descheduled on a busy machine would keep the whole turn waiting).
      // The watchdog stays until the body ends, so a server that never ends it does not
      // keep the socket forever.
      if (this.#finished && !this.#aborted && !this.#settled) {
        this.#draining = true;
        this.#complete();
      }
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
    this.#subscriber.next(chunk);
  }

  #complete(): void {
    if (this.#settled) return;
    this.#settle();
    // A body that ended because the request was aborted is not a complete reply.
    if (this.#aborted) this.#subscriber.error(this.#abortOutcome());
    else this.#subscriber.complete();
  }

  #fail(error: unknown): void {
    if (this.#settled) return;
    this.#settle();
    this.#stopReading?.();
    if (this.#aborted) this.#subscriber.error(this.#abortOutcome());
    else this.#subscriber.error(toModelError(error, this.#settings));
  }

  /**
   * Ends the attempt: its timers and its listener on the caller's signal go at once, before
   * the outcome is told (a retry may start another attempt from inside it).
   */
  #settle(): void {
    this.#settled = true;
    if (!this.#draining) clearTimeout(this.#watchdog);
    clearTimeout(this.#deadline);
    this.#outer?.removeEventListener('abort', this.#onOuterAbort);
  }

  #teardown(): void {
    if (this.#settled) return;
    this.#settle();
    this.#stopReading?.();
    // Only a request still in flight is aborted: aborting a finished one would cost a
    // DOMException per request (and the SDK and the transport would each react to it).
    this.#abort();
  }

  readonly #onOuterAbort = (): void => {
    this.#abort(this.#outer?.reason);
    this.#fail(undefined);
  };

  #onDeadline(): void {
    this.#timedOut = 'request';
    this.#abortInFlight();
  }

  /** Aborts the request in flight, once. */
  #abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#abortRequest?.(reason);
  }

  /** Starts the watchdog, or (already running, as while the headers were awaited) resets it. */
  #armWatchdog(): void {
    if (this.#aborted) return; // unsubscribed while the headers arrived
    this.#lastActivity = performance.now();
    this.#watchdog ??= setTimeout(this.#check, this.#settings.timeoutMs);
  }

  readonly #check = (): void => {
    const idle = performance.now() - this.#lastActivity;
    if (idle < this.#settings.timeoutMs) {
      this.#watchdog = setTimeout(this.#check, this.#settings.timeoutMs - idle);
      return;
    }
    this.#timedOut ??= this.#headersSeen ? 'gap' : 'headers';
    this.#abortInFlight();
  };

  /** A timeout: abort the request and end the attempt now, whatever the transport does. */
  #abortInFlight(): void {
    this.#abort();
    this.#fail(undefined);
  }

  /** A stream that ended without a finish reason: cut, or a server that sent nothing. */
  #cutStream(): ModelError {
    const { model, baseURL } = this.#settings;
    return new ModelError(
      `The stream from model "${model}" at ${baseURL} ended before the reply was complete (no finish_reason): the connection was cut or the server failed; try again.`,
      { retryable: true },
    );
  }

  #abortOutcome(): Error {
    const timedOut = this.#timedOut;
    if (!timedOut) return abortError(this.#outer?.reason);
    // As the SDK's own timeout reports it.
    if (timedOut === 'headers')
      return toModelError(new APIConnectionTimeoutError(), this.#settings);
    const { model, baseURL, timeoutMs, requestTimeoutMs } = this.#settings;
    if (timedOut === 'request') {
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

function noop(): void {}
