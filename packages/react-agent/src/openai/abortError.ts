/**
 * An error named `AbortError` (so `isAbortError()` is true) for a model request cancelled
 * through its `AbortSignal`; `cause` keeps the signal's reason (an interrupt, say).
 */
export function abortError(reason?: unknown): Error {
  const error = new Error(
    'The model request was aborted (interrupt or cancellation); nothing more will be streamed.',
    reason === undefined ? undefined : { cause: reason },
  );
  error.name = 'AbortError';
  return error;
}
