import { isAbortError, ModelError } from '@rxagent/core';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { abortError } from './abortError.js';
import { isNetworkFailure } from './isNetworkFailure.js';
import { quoteBody } from './quoteBody.js';
import { parseRetryAfterMs } from './retry.js';

/** What an error message names: the model, the server and the timeout in force. */
export interface ModelErrorContext {
  readonly model: string;
  readonly baseURL: string;
  readonly timeoutMs: number;
}

/**
 * Maps an SDK (or network) error to a `ModelError` whose message names the status and the
 * server's message and says what to do; `cause` keeps the original. Aborts become an
 * `AbortError` instead (they are cancellations, not model failures); a `ModelError` passes
 * through. Retryable: 429, 5xx (unless the server sent `x-should-retry: false`), timeouts,
 * connection failures and cut streams (see `isNetworkFailure`). Anything else, such as a
 * chunk that is not JSON or a programming error, is not retryable and keeps its message.
 * A server's body is quoted up to 500 characters; the status and request id are kept.
 */
export function toModelError(error: unknown, context: ModelErrorContext): Error {
  if (error instanceof ModelError) return error;
  // The SDK's error classes keep the name "Error", so `isAbortError` cannot see this one.
  if (error instanceof APIUserAbortError) return abortError();
  if (isAbortError(error)) return error as Error;
  const where = `model "${context.model}" at ${context.baseURL}`;
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelError(
      `Request to ${where} timed out after ${context.timeoutMs} ms: raise timeoutMs or check that the server is not overloaded.`,
      { retryable: true },
      { cause: error },
    );
  }
  if (error instanceof APIConnectionError) {
    const reason = innermostMessage(error);
    return new ModelError(
      `Could not reach ${where} (${reason}): check that the server is running and baseURL is right.`,
      { retryable: true },
      { cause: error },
    );
  }
  if (error instanceof APIError) return fromApiError(error, where);
  const message = quoteBody(error instanceof Error ? error.message : String(error));
  if (isNetworkFailure(error)) {
    const reason =
      error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
    return new ModelError(
      `Request to ${where} failed: ${message}${reason ? ` (${quoteBody(reason)})` : ''}: the connection failed or was cut.`,
      { retryable: true },
      { cause: error },
    );
  }
  if (error instanceof SyntaxError) {
    return new ModelError(
      `${where} sent data that is not valid JSON (${message}): the server is not speaking the Chat Completions protocol.`,
      {},
      { cause: error },
    );
  }
  return new ModelError(`Request to ${where} failed: ${message}.`, {}, { cause: error });
}

/**
 * The message of the deepest error in `error`'s cause chain: for a refused connection the
 * socket's `connect ECONNREFUSED …` rather than fetch's `fetch failed` around it.
 */
function innermostMessage(error: Error): string {
  let current = error;
  for (let depth = 0; depth < 4 && current.cause instanceof Error; depth++) current = current.cause;
  return current.message;
}

/** The wait a rate-limited or overloaded server asked for, read from the SDK error's headers. */
export function retryAfterOf(error: unknown): number | undefined {
  const source = error instanceof ModelError ? error.cause : error;
  return source instanceof APIError ? parseRetryAfterMs(source.headers) : undefined;
}

/** Whether retrying the request may succeed (see `toModelError`). */
export function isRetryableModelError(error: unknown): boolean {
  return error instanceof ModelError && error.retryable;
}

function fromApiError(error: APIError, where: string): ModelError {
  const status = error.status;
  const body = error.error as { message?: unknown } | undefined;
  const serverMessage = quoteBody(typeof body?.message === 'string' ? body.message : error.message);
  const requestId = error.requestID ? ` (request id ${error.requestID})` : '';
  if (status === undefined) {
    return new ModelError(
      `${where} reported an error mid-stream: ${serverMessage}${requestId}`,
      {},
      { cause: error },
    );
  }
  // OpenAI's `x-should-retry: false` vetoes a retry the status alone would allow.
  const veto = error.headers?.get('x-should-retry') === 'false';
  const retryable = !veto && (status === 429 || status >= 500);
  return new ModelError(
    `Request to ${where} failed with HTTP ${status}: ${serverMessage}${requestId}. ${adviceFor(status, error.headers)}`,
    { status, retryable },
    { cause: error },
  );
}

function adviceFor(status: number, headers: Headers | undefined): string {
  if (status >= 300 && status < 400) {
    const location = headers?.get('location');
    return `The server redirects${location ? ` to ${quoteBody(location, 200)}` : ''}: set baseURL to the final address (a request is never sent twice).`;
  }
  if (status === 401) return 'Check the API key (apiKey or OPENAI_API_KEY).';
  if (status === 403) return 'The API key may not use this model or endpoint.';
  if (status === 404) return 'Check the model name (model or OPENAI_MODEL) and baseURL.';
  if (status === 429)
    return 'Rate limited or out of quota: slow down, raise maxRetries or check the plan.';
  if (status >= 500) return 'The server failed: try again later or raise maxRetries.';
  return 'The server rejected the request: check the messages, tools and options sent.';
}
