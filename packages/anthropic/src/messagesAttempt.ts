import type Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import { type ChatChunk, ModelError } from '@rxagent/core';
import type { AttemptSink } from '@rxagent/react-agent';
import { StreamEventReader } from './streamEventReader.js';
import { abortError, toAnthropicError } from './toAnthropicError.js';

/** What every attempt of one model shares. */
export interface MessagesAttemptSettings {
  readonly client: Anthropic;
  readonly model: string;
  readonly baseURL: string;
  /** For the response headers, and between two events. */
  readonly timeoutMs: number;
}

/**
 * One streamed Messages API request: sends `params`, reads each event into chunks for
 * `sink`, and ends it with `complete` after `message_stop`, or with `error`: a `ModelError`
 * (a cut stream without `message_stop` is retryable, a malformed event is not), an
 * `AbortError` when `signal` aborts. No event for `timeoutMs` fails it as a timeout.
 * Returns the teardown, which closes the HTTP request at once.
 */
export function startMessagesAttempt(
  settings: MessagesAttemptSettings,
  params: MessageCreateParamsStreaming,
  sink: AttemptSink<ChatChunk>,
  signal: AbortSignal | undefined,
): () => void {
  const controller = new AbortController();
  const reader = new StreamEventReader();
  let done = false;
  let timedOut = false;
  let idle: ReturnType<typeof setTimeout> | undefined;
  const release = (): void => {
    done = true;
    clearTimeout(idle);
    signal?.removeEventListener('abort', onAbort);
  };
  const fail = (error: unknown): void => {
    if (done) return;
    release();
    controller.abort();
    sink.error(error);
  };
  const onAbort = (): void => fail(abortError(signal?.reason));
  // One timer for the whole attempt, pushed back per event (`refresh` reuses it).
  const arm = (): void => {
    if (idle !== undefined) {
      idle.refresh();
      return;
    }
    idle = setTimeout(() => {
      timedOut = true;
      fail(timeoutError(settings));
    }, settings.timeoutMs);
  };
  if (signal?.aborted) {
    sink.error(abortError(signal.reason));
    return () => {};
  }
  signal?.addEventListener('abort', onAbort, { once: true });
  arm();
  const run = async (): Promise<void> => {
    const stream = await settings.client.messages.create(params, {
      signal: controller.signal,
      maxRetries: 0,
    });
    for await (const event of stream) {
      if (done) return;
      arm();
      const chunk = reader.read(event);
      if (chunk !== undefined) sink.next(chunk);
    }
    if (done) return;
    if (!reader.finished) {
      fail(
        new ModelError(
          `The stream of model "${settings.model}" at ${settings.baseURL} ended before message_stop: the connection was cut.`,
          { retryable: true },
        ),
      );
      return;
    }
    release();
    sink.complete();
  };
  run().catch((error: unknown) => {
    if (done || timedOut) return;
    fail(toAnthropicError(error, settings));
  });
  return () => {
    if (done) return;
    release();
    controller.abort();
  };
}

function timeoutError(settings: MessagesAttemptSettings): ModelError {
  return new ModelError(
    `Request to model "${settings.model}" at ${settings.baseURL} timed out: nothing arrived for ${settings.timeoutMs} ms. Raise timeoutMs or check that the server is not overloaded.`,
    { retryable: true },
  );
}
