import type { ServerResponse } from 'node:http';
import {
  completion,
  defaultErrorMessage,
  errorBody,
  type ReplyMeta,
  streamEvents,
  type WireObject,
} from './openAIReply.js';
import type { DialectWire } from './serverDialect.js';
import type { TurnPlan } from './turnPlan.js';

/** One HTTP exchange the server answers: the response, its abort signal and a connection reset. */
export interface Exchange {
  readonly res: ServerResponse;
  readonly requestId: string;
  /** Aborts when the client disconnects or the server closes. */
  readonly signal: AbortSignal;
  /** Destroys the connection without a (complete) response. */
  reset(): void;
}

/** How the request asked to be answered. */
export interface ReplyShape {
  readonly stream: boolean;
  readonly includeUsage: boolean;
  /** Input tokens read from the prompt cache, reported as `prompt_tokens_details.cached_tokens`. */
  readonly cachedTokens?: number;
  readonly meta: ReplyMeta;
  /** A dialect's fields (see `StrictServerDialect`). */
  readonly wire?: DialectWire;
}

/**
 * Answers one request with a planned turn: a scripted error, a connection reset, a JSON
 * completion or an SSE stream, with the turn's delays. Rejects (with the abort reason) when
 * the exchange is aborted; every pending timer is cleared then.
 */
export async function serveTurn(
  exchange: Exchange,
  plan: TurnPlan,
  shape: ReplyShape,
): Promise<void> {
  const { error } = plan;
  if (error && error.afterChunks === undefined) {
    await sleep(plan.delayMs, exchange.signal);
    if (error.status === undefined) return exchange.reset();
    const message = error.message ?? defaultErrorMessage(error.status);
    return sendJson(exchange, error.status, errorBody(error.status, message), error.headers);
  }
  const events = streamEvents(plan, shape.meta, shape.includeUsage, shape.wire, shape.cachedTokens);
  const counted = error ? events.counted.slice(0, error.afterChunks) : events.counted;
  if (!shape.stream) {
    // A non-streamed reply takes as long as the stream would have.
    await sleep(
      plan.delayMs + plan.chunkDelayMs * Math.max(0, counted.length - 1),
      exchange.signal,
    );
    if (error) return exchange.reset();
    return sendJson(exchange, 200, completion(plan, shape.meta, shape.wire, shape.cachedTokens));
  }
  const { res } = exchange;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-request-id': exchange.requestId,
  });
  res.flushHeaders();
  await sleep(plan.delayMs, exchange.signal);
  if (events.preamble) await write(res, events.preamble, exchange.signal);
  for (const [index, chunk] of counted.entries()) {
    if (index > 0) await sleep(plan.chunkDelayMs, exchange.signal);
    await write(res, chunk, exchange.signal);
  }
  exchange.signal.throwIfAborted();
  if (error) return exchange.reset();
  if (events.usage) await write(res, events.usage, exchange.signal);
  res.end('data: [DONE]\n\n');
}

/** Sends a JSON response (`application/json`) with `x-request-id` and extra headers. */
export function sendJson(
  exchange: Pick<Exchange, 'res' | 'requestId'>,
  status: number,
  body: WireObject,
  headers: Record<string, string> = {},
): void {
  exchange.res.writeHead(status, {
    'content-type': 'application/json',
    'x-request-id': exchange.requestId,
    ...headers,
  });
  exchange.res.end(JSON.stringify(body));
}

// Resolves once the data is handed to the socket, so a reset right after it still delivers it.
function write(res: ServerResponse, data: WireObject, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    res.write(`data: ${JSON.stringify(data)}\n\n`, () => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

/** Waits `ms` (no timer at all for 0); rejects with the abort reason and clears the timer on abort. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
