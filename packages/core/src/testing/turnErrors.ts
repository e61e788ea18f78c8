import { ModelError } from '../errors.js';

/** The `ModelError` a scripted failure stands for: retryable without a status, on 429 and 5xx. */
export function scriptedError(status: number | undefined, message: string | undefined): ModelError {
  const retryable = status === undefined || status === 429 || status >= 500;
  const text =
    message ??
    (status === undefined ? 'connection reset (scripted)' : `scripted HTTP ${status} error`);
  return new ModelError(`ScriptedChatModel: ${text}`, {
    ...(status !== undefined && { status }),
    retryable,
  });
}

/** The `AbortError` a scripted request fails with when its signal aborts (the reason as `cause`). */
export function abortError(signal: AbortSignal | undefined): Error {
  const error = new Error('ScriptedChatModel request was aborted.', { cause: signal?.reason });
  error.name = 'AbortError';
  return error;
}
