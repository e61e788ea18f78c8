import { ModelError } from '@rxagent/core';
import { isNetworkFailure } from '../openai/isNetworkFailure.js';

/**
 * Whether a failed model request means the model is unavailable, so another model may take
 * the request: a retryable `ModelError` (429, 5xx, 529 overloaded, a refused or reset
 * connection, a timeout), or, from a model that throws raw errors, a network failure or a
 * `TimeoutError`. A 400-class validation error, a malformed reply or an abort is not.
 */
export function isOutage(error: unknown): boolean {
  if (error instanceof ModelError) return error.retryable;
  if (!(error instanceof Error)) return false;
  if (error.name === 'AbortError') return false;
  return error.name === 'TimeoutError' || isNetworkFailure(error);
}
