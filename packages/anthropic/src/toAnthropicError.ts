import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import { isAbortError, ModelError } from '@rxagent/core';
import { parseRetryAfterMs } from '@rxagent/react-agent';

/** What an error message names: the model, the server and the timeout in force. */
export interface AnthropicErrorContext {
  readonly model: string;
  readonly baseURL: string;
  readonly timeoutMs: number;
}

/** Error types of a stream's `error` event that mean the service is busy or failed (retryable). */
const TRANSIENT_TYPES: Readonly<Record<string, number>> = {
  overloaded_error: 529,
  api_error: 500,
  rate_limit_error: 429,
  timeout_error: 504,
};

/**
 * Maps an `@anthropic-ai/sdk` (or network) error to a `ModelError` whose message names the
 * status, the API's error type and message, and says what to do; `cause` keeps the original.
 * An abort becomes an `AbortError`. Retryable: 429, 5xx including 529 overloaded (unless the
 * server sent `x-should-retry: false`), timeouts and connection failures, and an `error` event
 * of type `overloaded_error`, `api_error`, `rate_limit_error` or `timeout_error` in the stream
 * (given the status it stands for). A server's message is quoted up to 500 characters.
 */
export function toAnthropicError(error: unknown, context: AnthropicErrorContext): Error {
  if (error instanceof ModelError) return error;
  if (error instanceof APIUserAbortError || isAbortError(error)) return abortError(error);
  const where = `model "${context.model}" at ${context.baseURL}`;
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelError(
      `Request to ${where} timed out after ${context.timeoutMs} ms: raise timeoutMs or check that the server is not overloaded.`,
      { retryable: true },
      { cause: error },
    );
  }
  if (error instanceof APIConnectionError) {
    return new ModelError(
      `Could not reach ${where} (${quote(innermostMessage(error))}): check that the server is running and baseURL is right.`,
      { retryable: true },
      { cause: error },
    );
  }
  if (error instanceof APIError) return fromApiError(error, where);
  const message = quote(error instanceof Error ? error.message : String(error));
  return new ModelError(`Request to ${where} failed: ${message}.`, {}, { cause: error });
}

/** The wait a rate-limited or overloaded server asked for (`retry-after`), if any. */
export function anthropicRetryAfter(error: unknown): number | undefined {
  const source = error instanceof ModelError ? error.cause : error;
  return source instanceof APIError ? parseRetryAfterMs(source.headers) : undefined;
}

function fromApiError(error: APIError, where: string): ModelError {
  const type = typeof error.type === 'string' ? error.type : undefined;
  const serverMessage = quote(error.apiMessage ?? error.message);
  const requestId = error.requestID ? ` (request id ${error.requestID})` : '';
  const kind = type ? ` ${type}` : '';
  if (error.status === undefined) {
    // An `error` event in the middle of a stream.
    const status = type === undefined ? undefined : TRANSIENT_TYPES[type];
    return new ModelError(
      `${where} reported${kind} mid-stream: ${serverMessage}${requestId}.${status ? ' The service is busy: try again later.' : ''}`,
      { retryable: status !== undefined, ...(status !== undefined && { status }) },
      { cause: error },
    );
  }
  const status = error.status;
  const veto = error.headers?.get('x-should-retry') === 'false';
  const retryable = !veto && (status === 429 || status >= 500);
  return new ModelError(
    `Request to ${where} failed with HTTP ${status}${kind}: ${serverMessage}${requestId}. ${adviceFor(status)}`,
    { status, retryable },
    { cause: error },
  );
}

function adviceFor(status: number): string {
  if (status === 401) return 'Check the API key (apiKey or ANTHROPIC_API_KEY).';
  if (status === 403) return 'The API key may not use this model.';
  if (status === 404) return 'Check the model name (model or ANTHROPIC_MODEL) and baseURL.';
  if (status === 429) return 'Rate limited: slow down, raise maxRetries or check the plan.';
  if (status === 529) return 'The API is overloaded: try again later or add a fallback model.';
  if (status >= 500) return 'The server failed: try again later or raise maxRetries.';
  return 'The API rejected the request: check the messages, tools and options sent.';
}

function innermostMessage(error: Error): string {
  let current = error;
  for (let depth = 0; depth < 4 && current.cause instanceof Error; depth++) current = current.cause;
  return current.message;
}

/** An error named `AbortError` for a cancelled request; `cause` keeps what aborted it. */
export function abortError(reason?: unknown): Error {
  const error = new Error(
    'The model request was aborted (interrupt or cancellation); nothing more will be streamed.',
    reason === undefined ? undefined : { cause: reason },
  );
  error.name = 'AbortError';
  return error;
}

function quote(text: string, max = 500): string {
  const folded = text
    .slice(0, max * 4)
    .replace(/\s+/g, ' ')
    .trim();
  return folded.length <= max
    ? folded
    : `${folded.slice(0, max)}… (${text.length} characters in all)`;
}
