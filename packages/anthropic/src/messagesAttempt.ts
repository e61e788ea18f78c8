import type Anthropic from '@anthropic-ai/sdk';
import { APIConnectionError, APIError } from '@anthropic-ai/sdk';
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import { type ChatChunk, ModelError } from '@rxagent/core';
import {
  type AttemptSink,
  type DirectRoutes,
  EventStreamAttempt,
  errorBody,
} from '@rxagent/react-agent';
import { routable } from './messagesRoute.js';
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
  readonly routes: DirectRoutes | undefined;
}

/**
 * One streamed Messages API request (`runWithRetries` starts one per attempt), an
 * `EventStreamAttempt` (its limits, abort and body reading): sends `params`, reads each
 * event into chunks for the sink, and completes at `message_stop`, or errors: a
 * `ModelError` (a cut stream without `message_stop` is retryable, a malformed event is not),
 * an `AbortError` when the caller's signal aborts, a timeout when nothing arrived for
 * `timeoutMs`.
 *
 * Along the model's route (`messagesRoute`: URL and headers asked of the SDK once) the
 * request goes straight to the transport and each event, read as the SDK's `Stream` reads
 * it (`ping` and unnamed events skipped, an `error` event the SDK's `APIError`), goes
 * through `StreamEventReader` to the sink: no async iterator and no promise per event. With
 * a client the caller gave, or body fields the SDK sends as headers, the SDK sends the
 * request and its `Stream` is read instead.
 */
export class MessagesAttempt extends EventStreamAttempt<ChatChunk> {
  readonly #settings: MessagesAttemptSettings;
  readonly #reader = new StreamEventReader();
  /** The streamed response, for the headers of an `error` event's error. */
  #response: Response | undefined;

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
    return () => attempt.teardown();
  }

  private constructor(
    settings: MessagesAttemptSettings,
    sink: AttemptSink<ChatChunk>,
    outer: AbortSignal | undefined,
  ) {
    super(settings, sink, outer);
    this.#settings = settings;
  }

  protected get replyFinished(): boolean {
    return this.#reader.finished;
  }

  protected get where(): string {
    return `Model "${this.#settings.model}" at ${this.#settings.baseURL}`;
  }

  #send(params: MessageCreateParamsStreaming): void {
    const routes = this.#settings.routes;
    if (!routes || !routable(params)) {
      this.#sendThroughSdk(params);
      return;
    }
    this.sendAlong(routes, params, connectionError);
  }

  protected override async onResponse(response: Response): Promise<void> {
    this.#response = response;
    return super.onResponse(response);
  }

  protected onEvent(data: string, event: string | undefined): void {
    if (event === undefined || event === 'ping') return;
    if (event === 'error') {
      const body = parsed(data) ?? data;
      const type = (body as { error?: { type?: unknown } } | null)?.error?.type;
      const headers = this.#response?.headers;
      throw new APIError(undefined, body as object, undefined, headers, type as never);
    }
    this.#read(JSON.parse(data));
  }

  #read(event: unknown): void {
    const chunk = this.#reader.read(event);
    if (chunk !== undefined) this.sink.next(chunk);
    if (this.#reader.finished) this.replyComplete();
  }

  /** A client the caller gave: the SDK sends the request, and its `Stream` is read. */
  #sendThroughSdk(params: MessageCreateParamsStreaming): void {
    this.armWatchdog();
    const run = async (): Promise<void> => {
      const stream = await this.#settings.client.messages.create(params, {
        signal: this.newSignal(),
        maxRetries: 0,
      });
      for await (const event of stream) {
        if (this.settled) return;
        this.touch();
        this.#read(event);
      }
      if (!this.settled) this.end();
    };
    run().catch((error: unknown) => this.fail(error));
  }

  protected async statusError(response: Response): Promise<APIError> {
    const { json, text } = await errorBody(response);
    return APIError.generate(response.status, json, json ? undefined : text, response.headers);
  }

  protected toError(error: unknown): Error {
    return toAnthropicError(error, this.#settings);
  }

  protected cutStream(): ModelError {
    const { model, baseURL } = this.#settings;
    return new ModelError(
      `The stream of model "${model}" at ${baseURL} ended before message_stop: the connection was cut.`,
      { retryable: true },
    );
  }

  protected abortError(reason: unknown): Error {
    return abortError(reason);
  }

  protected timeoutError(): Error {
    const { model, baseURL, timeoutMs } = this.#settings;
    return new ModelError(
      `Request to model "${model}" at ${baseURL} timed out: nothing arrived for ${timeoutMs} ms. Raise timeoutMs or check that the server is not overloaded.`,
      { retryable: true },
    );
  }
}

/** As the SDK reports it: a connection that failed or was refused. */
function connectionError(cause: unknown): APIConnectionError {
  return new APIConnectionError({ cause: cause instanceof Error ? cause : undefined });
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function noop(): void {}
