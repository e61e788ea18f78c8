import { RestateCallError } from './restateCallError.js';

/** Where an agent object's handlers are reached through Restate's ingress. */
export interface IngressTarget {
  readonly ingressUrl: string;
  readonly service: string;
  readonly key: string;
  /** The agent's name, for errors. */
  readonly agentName: string;
}

/** Options of one ingress request. */
export interface IngressRequestOptions {
  /** Restate deduplicates requests with the same key: a resent call attaches to the first. */
  readonly idempotencyKey?: string;
  readonly signal?: AbortSignal;
}

/**
 * Sends `body` as JSON to the handler `handler` of the target object and resolves with the
 * parsed JSON answer (`undefined` for an empty one). Rejects with `RestateCallError` when
 * the ingress answers with an error status (a terminal error of the handler among them),
 * with the fetch error when the ingress cannot be reached or `signal` aborts.
 */
export async function callHandler<T>(
  target: IngressTarget,
  handler: string,
  body: unknown,
  options: IngressRequestOptions = {},
): Promise<T> {
  const url = `${target.ingressUrl}/${encodeURIComponent(target.service)}/${encodeURIComponent(target.key)}/${handler}`;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify(body ?? null),
    ...(options.signal !== undefined && { signal: options.signal }),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new RestateCallError(target.agentName, handler, response.status, errorText(text));
  }
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** The message of an ingress error body (`{ message }`), or the body itself. */
function errorText(text: string): string {
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // Not JSON: quote it as it is.
  }
  return text.slice(0, 500);
}
