import type Anthropic from '@anthropic-ai/sdk';
import { APIConnectionError, APIError } from '@anthropic-ai/sdk';
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import { type ChatChunk, ModelError } from '@rxagent/core';
import {
  type AttemptSink,
  type BodySink,
  EventStreamDecoder,
  notAnEventStream,
  readBody,
  readText,
  responseHeader,
} from '@rxagent/react-agent';
import { type MessagesRoute, type MessagesRoutes, routable } from './messagesRoute.js';
import { StreamEventReader } from './streamEventReader.js';
import { abortError, toAnthropicError } from './toAnthropicError.js';

/** What every attempt of one model shares. */
export interface MessagesAttemptSettings {
  readonly client: Anthropic;
  readonly model: string;
  readonly baseURL: string;
  /** For the response headers, and between two events. */
  readonly timeoutMs: number;
  /**
   * Where requests go without the SDK's request machinery, when the model made its own
   * client; without it (a client the caller gave, whose auth or hooks may differ per
   * request) the SDK sends every request.
   */
  readonly routes: MessagesRoutes | undefined;
}

/** The most of an error body read to report it; the rest is never read. */
const ERROR_BODY_BYTES = 64 * 1024;

/**
 * One streamed Messages API request (`runWithRetries` starts one per attempt): sends
 * `params`, reads each event into chunks for the sink, and ends it with `complete` at
 * `message_stop`, or with `error`: a `ModelError` (a cut stream without `message_stop` is
 * retryable, a malformed event is not), an `AbortError` when the caller's signal aborts.
 *
 * Along the model's route (`MessagesRoutes`: URL and headers asked of the SDK once) the
 * request goes straight to the transport, and the body's bytes go through
 * `EventStreamDecoder`, each event's JSON through `StreamEventReader`, each chunk straight
 * to the sink: no async iterator and no promise per event. A status error becomes the SDK's
 * own error class, as the SDK would report it. With a client the caller gave, the SDK sends
 * the request and its `Stream` is read instead.
 *
 * No event for `timeoutMs` (the response headers included) fails the attempt as a timeout;
 * an event only records the time, and the watchdog re-arms itself for the time left. After
 * `message_stop` the rest of the body is read (so the connection is reused) under the same
 * watchdog, and ignored. Unsubscribing, or aborting the signal, aborts the request at once.
 */
export class MessagesAttempt implements BodySink {
  readonly #settings: MessagesAttemptSettings;
  readonly #sink: AttemptSink<ChatChunk>;
  readonly #outer: AbortSignal | undefined;
  readonly #reader = new StreamEventReader();
  #abortRequest: ((reason?: unknown) => void) | undefined;
  /** Whether this attempt aborted its request (unsubscribed, timed out, or the caller aborted). */
  #aborted = false;
  #timedOut = false;
  #settled = false;
  /** Completed at `message_stop`, the rest of the body still being read under the watchdog. */
  #draining = false;
  #lastActivity = 0;
  #watchdog: ReturnType<typeof setTimeout> | undefined;
  #decoder: EventStreamDecoder | undefined;
  /** The streamed response, for the headers of an `error` event's error. */
  #response: Response | undefined;
  #stopReading: (() => void) | undefined;

  /** Sends `params` and returns what stops the attempt. */
  static start(
    settings: MessagesAttemptSettings,
    params: MessageCreateParamsStreaming,
    sink: AttemptSink<ChatChunk>,
    outer: AbortSignal | undefined,
  ): () => void {
    if (outer?.aborted) {
      sink.error(abortError(outer.reason));
      return noop;
    }
    const attempt = new MessagesAttempt(settings, sink, outer);
    attempt.#send(params);
    return () => attempt.#teardown();
  }

  private constructor(
    settings: MessagesAttemptSettings,
    sink: AttemptSink<ChatChunk>,
    outer: AbortSignal | undefined,
  ) {
    this.#settings = settings;
    this.#sink = sink;
    this.#outer = outer;
    outer?.addEventListener('abort', this.#onOuterAbort, { once: true });
    this.#armWatchdog();
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
    else if (!this.#reader.finished && !this.#aborted) this.#fail(this.#cutStream());
    else this.#complete();
  }

  #send(params: MessageCreateParamsStreaming): void {
    const routes = this.#settings.routes;
    if (!routes || !routable(params)) {
      this.#sendThroughSdk(params);
      return;
    }
    const route = routes.get();
    if (route instanceof Promise) {
      route.then(
        (built) => this.#sendDirect(built, params),
        (error: unknown) => this.#fail(error),
      );
    } else this.#sendDirect(route, params);
  }

  /**
   * Sends along `route`. On `createNodeFetch` the request is aborted through its own handle,
   * with no `AbortController` (and no listener on it) per request.
   */
  #sendDirect(route: MessagesRoute, params: MessageCreateParamsStreaming): void {
    if (this.#settled) return;
    let body: string;
    try {
      body = JSON.stringify(params);
    } catch (error) {
      this.#fail(error);
      return;
    }
    const init = { method: 'POST', headers: route.headers as [string, string][], body };
    const abortable = route.sendAbortable?.(route.url, init);
    if (abortable) this.#abortRequest = abortable.abort;
    const response = abortable
      ? abortable.response
      : route.fetch(route.url, { ...init, signal: this.#newSignal() });
    response
      .then(
        (response) => this.#onResponse(response),
        // As the SDK reports it: a connection that failed or was refused.
        (error: unknown) => {
          throw new APIConnectionError({ cause: error instanceof Error ? error : undefined });
        },
      )
      .catch((error: unknown) => this.#fail(error));
  }

  async #onResponse(response: Response): Promise<void> {
    if (this.#settled) return; // ended meanwhile: the request was aborted, its body with it
    if (!response.ok) throw await statusError(response);
    this.#armWatchdog();
    const type = responseHeader(response, 'content-type') ?? '';
    // Servers that answer a stream request with a JSON error or an HTML page still say 200.
    if (/json|html/i.test(type)) {
      const { model, baseURL } = this.#settings;
      throw await notAnEventStream(response, type, `Model "${model}" at ${baseURL}`);
    }
    this.#response = response;
    this.#decoder = new EventStreamDecoder(this.#onEvent);
    this.#stopReading = readBody(response, this);
  }

  /** One server-sent event, read as the SDK's `Stream` reads it. */
  readonly #onEvent = (data: string, event: string | undefined): void => {
    // Whole events, not bytes, count as activity: a byte trickle is not a working server.
    this.#lastActivity = performance.now();
    if (this.#draining || event === undefined || event === 'ping') return;
    if (event === 'error') {
      const body = safeJson(data) ?? data;
      const type = (body as { error?: { type?: unknown } } | null)?.error?.type;
      throw new APIError(
        undefined,
        body as object,
        undefined,
        this.#response?.headers,
        type as never,
      );
    }
    const chunk = this.#reader.read(JSON.parse(data));
    if (chunk !== undefined) this.#sink.next(chunk);
    if (this.#reader.finished && !this.#settled) {
      // The reply is complete now, not at the body's end, which may come in a later packet.
      this.#draining = true;
      this.#complete();
    }
  };

  /** A client the caller gave: the SDK sends the request, and its `Stream` is read. */
  #sendThroughSdk(params: MessageCreateParamsStreaming): void {
    const run = async (): Promise<void> => {
      const stream = await this.#settings.client.messages.create(params, {
        signal: this.#newSignal(),
        maxRetries: 0,
      });
      this.#armWatchdog();
      for await (const event of stream) {
        if (this.#settled) return;
        this.#lastActivity = performance.now();
        const chunk = this.#reader.read(event);
        if (chunk !== undefined) this.#sink.next(chunk);
      }
      if (!this.#settled) this.end();
    };
    run().catch((error: unknown) => this.#fail(error));
  }

  /** A signal that aborting this attempt aborts. */
  #newSignal(): AbortSignal {
    const controller = new AbortController();
    this.#abortRequest = (reason) => controller.abort(reason);
    return controller.signal;
  }

  #complete(): void {
    if (this.#settled) return;
    this.#settle();
    if (this.#aborted) this.#sink.error(this.#abortOutcome());
    else this.#sink.complete();
  }

  #fail(error: unknown): void {
    if (this.#settled) return;
    this.#settle();
    this.#stopReading?.();
    if (this.#aborted) this.#sink.error(this.#abortOutcome());
    else this.#sink.error(toAnthropicError(error, this.#settings));
  }

  /**
   * Ends the attempt: its timer and its listener on the caller's signal go at once, before
   * the outcome is told (a retry may start another attempt from inside it).
   */
  #settle(): void {
    this.#settled = true;
    if (!this.#draining) clearTimeout(this.#watchdog);
    this.#outer?.removeEventListener('abort', this.#onOuterAbort);
  }

  #teardown(): void {
    if (this.#settled) return;
    this.#settle();
    this.#stopReading?.();
    this.#abort();
  }

  readonly #onOuterAbort = (): void => {
    this.#abort(this.#outer?.reason);
    this.#fail(undefined);
  };

  /** Aborts the request in flight, once. */
  #abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#abortRequest?.(reason);
  }

  /** Starts the watchdog, or (already running) records activity. */
  #armWatchdog(): void {
    this.#lastActivity = performance.now();
    this.#watchdog ??= setTimeout(this.#check, this.#settings.timeoutMs);
  }

  readonly #check = (): void => {
    const idle = performance.now() - this.#lastActivity;
    if (idle < this.#settings.timeoutMs) {
      this.#watchdog = setTimeout(this.#check, this.#settings.timeoutMs - idle);
      return;
    }
    this.#timedOut = true;
    if (this.#draining) {
      // Complete already: the server never ended the body; close it.
      this.#stopReading?.();
      this.#abortRequest?.();
      return;
    }
    this.#abort();
    this.#fail(undefined);
  };

  #cutStream(): ModelError {
    const { model, baseURL } = this.#settings;
    return new ModelError(
      `The stream of model "${model}" at ${baseURL} ended before message_stop: the connection was cut.`,
      { retryable: true },
    );
  }

  #abortOutcome(): Error {
    if (!this.#timedOut) return abortError(this.#outer?.reason);
    const { model, baseURL, timeoutMs } = this.#settings;
    return new ModelError(
      `Request to model "${model}" at ${baseURL} timed out: nothing arrived for ${timeoutMs} ms. Raise timeoutMs or check that the server is not overloaded.`,
      { retryable: true },
    );
  }
}

/**
 * The SDK's error for a response that is not a success (`APIError.generate`: a
 * `RateLimitError` for a 429, an `InternalServerError` for a 5xx…), from at most 64 KB of
 * its body, with the response's headers (`retry-after`, `x-should-retry`, `request-id`).
 */
async function statusError(response: Response): Promise<APIError> {
  const text = await readText(response, ERROR_BODY_BYTES).catch((error: unknown) =>
    error instanceof Error ? error.message : String(error),
  );
  const json = safeJson(text);
  const body = json !== null && typeof json === 'object' ? json : undefined;
  return APIError.generate(response.status, body, body ? undefined : text, response.headers);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function noop(): void {}
