import type OpenAI from 'openai';
import { APIError } from 'openai';
import { errorEnvelope } from './errorEnvelope.js';
import { type SendAbortable, sendAbortableOf } from './nodeFetch.js';
import { readText } from './readText.js';

/** The most of an error body read to report it; the rest is never read. */
const ERROR_BODY_BYTES = 64 * 1024;

/**
 * Where a streamed chat completion goes, and the headers it carries, as the SDK builds them
 * for this model's own client: its URL (base URL, default query), authorization, user agent
 * and platform headers, `defaultHeaders`, organization and project.
 */
export interface DirectRoute {
  readonly url: string;
  /** Header names in lower case, as `Headers` gives them. */
  readonly headers: readonly (readonly [string, string])[];
  readonly fetch: typeof fetch;
  /** `fetch`'s way to send without a signal, when it is a `createNodeFetch` function. */
  readonly sendAbortable: SendAbortable | undefined;
}

type RequestOptions = Parameters<OpenAI['buildRequest']>[0];

/**
 * The route of one model, built on the first request (`build` asks the provider's SDK) and
 * kept: `get()` gives it at once from then on. A failed attempt to build it is not kept.
 */
export class DirectRoutes<R extends DirectRoute = DirectRoute> {
  readonly #build: () => Promise<R>;
  #route: R | undefined;
  #pending: Promise<R> | undefined;

  constructor(build: () => Promise<R>) {
    this.#build = build;
  }

  /** The route, or the promise of it while the first request builds it. */
  get(): R | Promise<R> {
    if (this.#route) return this.#route;
    this.#pending ??= this.#build().then(
      (route) => {
        this.#route = route;
        return route;
      },
      (error: unknown) => {
        this.#pending = undefined;
        throw error;
      },
    );
    return this.#pending;
  }
}

/**
 * Asks the SDK once what it sends with a chat completion on `client` (`buildRequest`: the
 * URL and headers of a POST to `/chat/completions`), so each request can be sent with
 * `fetchImpl` directly instead of through the SDK's request machinery (its logging, retry
 * loop, second abort controller and timeout timer, and a `Headers` built and validated per
 * request). Only for a client whose headers never change between requests: one
 * `OpenAIChatModel` made itself from a string API key.
 */
export async function directRoute(
  client: OpenAI,
  fetchImpl: typeof fetch,
  timeoutMs: number,
): Promise<DirectRoute> {
  const options: RequestOptions = {
    method: 'post',
    path: '/chat/completions',
    body: {},
    timeout: timeoutMs,
  };
  const { req, url } = await client.buildRequest(options);
  return routeOf(url, req.headers as ConstructorParameters<typeof Headers>[0], fetchImpl);
}

/**
 * A route to `url` with the headers an SDK built for it (`HeadersInit`, as `buildRequest`
 * gives them), sent with `fetchImpl`: the header names lower-cased and the list frozen, so
 * the transport builds its header list from it once, not per request.
 */
export function routeOf(
  url: string,
  init: ConstructorParameters<typeof Headers>[0],
  fetchImpl: typeof fetch,
): DirectRoute {
  const headers: (readonly [string, string])[] = [];
  new Headers(init).forEach((value, name) => {
    headers.push(Object.freeze([name, value] as const));
  });
  Object.freeze(headers);
  return { url, headers, fetch: fetchImpl, sendAbortable: sendAbortableOf(fetchImpl) };
}

/**
 * The SDK's error for a response that is not a success (`APIError.generate`: a
 * `RateLimitError` for a 429, an `InternalServerError` for a 5xx…), from at most 64 KB of
 * its body (the server's JSON error, or its text), as the SDK reports it.
 */
export async function statusError(response: Response): Promise<APIError> {
  const { json, text } = await errorBody(response);
  return APIError.generate(response.status, json, json ? undefined : text, response.headers);
}

/**
 * The body of an error response: at most its first 64 KB as text (the rest is never read),
 * and its JSON error when it is one. A JSON array of errors (Gemini's `[{"error": {...}}]`)
 * gives its first error, which an SDK would otherwise drop ("400 status code (no body)").
 */
export async function errorBody(response: Response): Promise<{ json?: object; text: string }> {
  const text = await readText(response, ERROR_BODY_BYTES).catch((error: unknown) =>
    error instanceof Error ? error.message : String(error),
  );
  try {
    const json = errorEnvelope(JSON.parse(text));
    return json === undefined ? { text } : { json, text };
  } catch {
    return { text }; // not JSON: the text is the message
  }
}
