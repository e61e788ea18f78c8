import type { DirectRoute, DirectRoutes } from './directRoute.js';
import { EventStreamDecoder } from './eventStreamDecoder.js';
import { responseHeader } from './nodeResponse.js';
import { notAnEventStream } from './notAnEventStream.js';
import { type BodySink, readBody } from './readBody.js';
import type { AttemptSink } from './retry.js';

/** Which limit ended an attempt: the wait for headers, a gap between events, or the whole request. */
export type AttemptTimeout = 'headers' | 'gap' | 'request';

/** The time limits of one attempt, in milliseconds. */
export interface AttemptLimits {
  /** For the response headers, and between two events. */
  readonly timeoutMs: number;
  /** For the whole attempt, when set. */
  readonly requestTimeoutMs?: number | undefined;
}

/**
 * One streamed HTTP request of a model (`runWithRetries` starts one per attempt), the part
 * every event-stream provider shares; a subclass reads the provider's events
 * (`onEvent`) and names its errors.
 *
 * Along a `DirectRoute` the request goes straight to the transport: on `createNodeFetch` it
 * is aborted through its own handle, with no `AbortController` and no listener per request.
 * A status that is not a success is the subclass's `statusError`; a 200 whose body is JSON
 * or HTML is not an event stream and fails quoting it. The body's bytes go through
 * `EventStreamDecoder` to `onEvent`, with no async iterator or promise per event. Once the
 * subclass calls `replyComplete()` the attempt completes, and the rest of the body is read
 * (so the connection is reused) and ignored; a body that ends before `replyFinished` is a cut
 * stream.
 *
 * The wait for the response headers, and every gap between two events, is bounded by
 * `timeoutMs` (bytes that never complete an event do not count); an event only records the
 * time, and the watchdog re-arms itself for the time left. `requestTimeoutMs` bounds the whole
 * attempt. A finished reply whose body never ends is closed after `timeoutMs`. Unsubscribing
 * (the function `start` returns calls `teardown`), or aborting the caller's signal, ends the
 * attempt and aborts the request at once.
 */
export abstract class EventStreamAttempt<T> implements BodySink {
  /** Where the attempt's chunks and outcome go. */
  protected readonly sink: AttemptSink<T>;
  /** The caller's signal. */
  protected readonly outer: AbortSignal | undefined;
  readonly #limits: AttemptLimits;
  /** Whether this attempt aborted its request (unsubscribed, timed out, or the caller aborted). */
  #aborted = false;
  /** Aborts the request in flight; set when it is sent. */
  #abortRequest: ((reason?: unknown) => void) | undefined;
  #timedOut: AttemptTimeout | undefined;
  #settled = false;
  #headersSeen = false;
  /** Completed, the rest of the body still being read (and its watchdog on). */
  #draining = false;
  #lastActivity = 0;
  #watchdog: ReturnType<typeof setTimeout> | undefined;
  #deadline: ReturnType<typeof setTimeout> | undefined;
  #decoder: EventStreamDecoder | undefined;
  #stopReading: (() => void) | undefined;

  protected constructor(
    limits: AttemptLimits,
    sink: AttemptSink<T>,
    outer: AbortSignal | undefined,
  ) {
    this.#limits = limits;
    this.sink = sink;
    this.outer = outer;
    outer?.addEventListener('abort', this.#onOuterAbort, { once: true });
    if (limits.requestTimeoutMs !== undefined) {
      // A closure only when there is a deadline (most models set none).
      this.#deadline = setTimeout(() => this.#onDeadline(), limits.requestTimeoutMs);
    }
  }

  /** One event of the body: its data and its `event` name. A throw fails the attempt with it. */
  protected abstract onEvent(data: string, event: string | undefined): void;

  /** Whether the reply is whole (a body that ends before is a cut stream). */
  protected abstract get replyFinished(): boolean;

  /** The error for a response whose status is not a success (its body is there to read). */
  protected abstract statusError(response: Response): Promise<unknown>;

  /** The error the attempt fails with for `error` (what the request, the body or `onEvent` threw). */
  protected abstract toError(error: unknown): Error;

  /** The error for a body that ended before the reply was whole. */
  protected abstract cutStream(): Error;

  /** The error for a limit that ended the attempt. */
  protected abstract timeoutError(timeout: AttemptTimeout): Error;

  /** The error for an attempt the caller's signal aborted (`reason` is the signal's). */
  protected abstract abortError(reason: unknown): Error;

  /** The model and server, as error messages name them: `Model "x" at http://…`. */
  protected abstract get where(): string;

  /** Each chunk of the streamed body (`BodySink`). */
  bytes(chunk: Uint8Array): void {
    this.#decoder!.push(chunk);
  }

  /** The end of the streamed body, or the error that ended it (`BodySink`). */
  end(error?: unknown): void {
    if (this.#draining) clearTimeout(this.#watchdog);
    this.#decoder?.end();
    if (error !== undefined) this.fail(error);
    else if (!this.replyFinished && !this.#aborted) this.fail(this.cutStream());
    else this.complete();
  }

  /** Whether the attempt has told its outcome. */
  protected get settled(): boolean {
    return this.#settled;
  }

  /** Whether the attempt aborted its request. */
  protected get aborted(): boolean {
    return this.#aborted;
  }

  /**
   * Sends `params` as JSON (a string: the JSON already made) along the route `routes` gives (built on the first request),
   * bounding the wait for the headers by `timeoutMs`. A connection that fails is
   * `connectionError(cause)`, as the provider's SDK reports it.
   */
  protected sendAlong(
    routes: DirectRoutes,
    params: unknown,
    connectionError: (cause: unknown) => unknown,
  ): void {
    const route = routes.get();
    if (route instanceof Promise) {
      route.then(
        (built) => this.#send(built, params, connectionError),
        (error: unknown) => this.fail(error),
      );
    } else this.#send(route, params, connectionError);
  }

  #send(route: DirectRoute, params: unknown, connectionError: (cause: unknown) => unknown): void {
    if (this.#settled) return;
    let body: string;
    try {
      body = typeof params === 'string' ? params : JSON.stringify(params);
    } catch (error) {
      this.fail(error);
      return;
    }
    this.armWatchdog();
    const init = { method: 'POST', headers: route.headers as [string, string][], body };
    const abortable = route.sendAbortable?.(route.url, init);
    if (abortable) this.#abortRequest = abortable.abort;
    const response = abortable
      ? abortable.response
      : route.fetch(route.url, { ...init, signal: this.newSignal() });
    response
      .then(
        (response) => this.#onDirectResponse(response),
        (error: unknown) => {
          throw connectionError(error);
        },
      )
      .catch((error: unknown) => this.fail(error));
  }

  async #onDirectResponse(response: Response): Promise<void> {
    if (this.#settled) return; // ended meanwhile: the request was aborted, its body with it
    if (!response.ok) {
      this.#headersSeen = true;
      throw await this.statusError(response);
    }
    return this.onResponse(response);
  }

  /** Reads a successful response's event stream (also one the provider's SDK sent). */
  protected async onResponse(response: Response): Promise<void> {
    if (this.#settled) return;
    this.#headersSeen = true;
    this.armWatchdog();
    const type = responseHeader(response, 'content-type') ?? '';
    // Servers that answer a stream request with a JSON error or an HTML page still say 200.
    if (/json|html/i.test(type)) throw await notAnEventStream(response, type, this.where);
    // The event callback is made with the decoder: a request still waiting for its headers
    // (a parked call) holds neither.
    this.#decoder = new EventStreamDecoder((data, event) => this.#onEvent(data, event));
    this.#stopReading = readBody(response, this);
  }

  #onEvent(data: string, event: string | undefined): void {
    // Whole events, not bytes, count as activity: a byte trickle is not a working server.
    this.#lastActivity = performance.now();
    // After the reply completed the rest of the body is read, but ignored.
    if (this.#draining) return;
    this.onEvent(data, event);
  }

  /**
   * The reply is whole: the attempt completes now, not at the body's end, which may come in
   * a later packet (a server descheduled on a busy machine would keep the whole turn
   * waiting). The watchdog stays until the body ends, so a server that never ends it does
   * not keep the socket forever.
   */
  protected replyComplete(): void {
    if (this.#aborted || this.#settled) return;
    this.#draining = true;
    this.complete();
  }

  /** Records activity: the watchdog counts the next gap from now. */
  protected touch(): void {
    this.#lastActivity = performance.now();
  }

  /** A signal that aborting this attempt aborts (for a request the provider's SDK sends). */
  protected newSignal(): AbortSignal {
    const controller = new AbortController();
    this.#abortRequest = (reason) => controller.abort(reason);
    return controller.signal;
  }

  /** Completes the attempt (an aborted one errors instead: an aborted body is no reply). */
  protected complete(): void {
    if (this.#settled) return;
    this.#settle();
    if (this.#aborted) this.sink.error(this.#abortOutcome());
    else this.sink.complete();
  }

  /** Fails the attempt with `toError(error)`, or with why it was aborted. */
  protected fail(error: unknown): void {
    if (this.#settled) return;
    this.#settle();
    this.#stopReading?.();
    if (this.#aborted) this.sink.error(this.#abortOutcome());
    else this.sink.error(this.toError(error));
  }

  /**
   * Ends the attempt: its timers and its listener on the caller's signal go at once, before
   * the outcome is told (a retry may start another attempt from inside it).
   */
  #settle(): void {
    this.#settled = true;
    if (!this.#draining) clearTimeout(this.#watchdog);
    clearTimeout(this.#deadline);
    this.outer?.removeEventListener('abort', this.#onOuterAbort);
  }

  /** Stops the attempt (unsubscribed): releases everything and aborts a request in flight. */
  protected teardown(): void {
    if (this.#settled) return;
    this.#settle();
    this.#stopReading?.();
    // Only a request still in flight is aborted: aborting a finished one would cost a
    // DOMException per request (and the transport would react to it).
    this.#abort();
  }

  readonly #onOuterAbort = (): void => {
    this.#abort(this.outer?.reason);
    this.fail(undefined);
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
  protected armWatchdog(): void {
    if (this.#aborted) return; // unsubscribed while the headers arrived
    this.#lastActivity = performance.now();
    this.#watchdog ??= setTimeout(this.#check, this.#limits.timeoutMs);
  }

  readonly #check = (): void => {
    const { timeoutMs } = this.#limits;
    const idle = performance.now() - this.#lastActivity;
    if (idle < timeoutMs) {
      this.#watchdog = setTimeout(this.#check, timeoutMs - idle);
      return;
    }
    this.#timedOut ??= this.#headersSeen ? 'gap' : 'headers';
    this.#abortInFlight();
  };

  /** A timeout: abort the request and end the attempt now, whatever the transport does. */
  #abortInFlight(): void {
    this.#abort();
    this.#stopReading?.();
    this.fail(undefined);
  }

  #abortOutcome(): Error {
    const timedOut = this.#timedOut;
    return timedOut ? this.timeoutError(timedOut) : this.abortError(this.outer?.reason);
  }
}
