import type Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import { type SendAbortable, sendAbortableOf } from '@rxagent/react-agent';

/**
 * Where a streamed Messages API request goes, and the headers it carries, as the SDK builds
 * them for one model's own client: the URL (base URL, default query), authentication, the
 * API version, user agent and platform headers, `defaultHeaders`.
 */
export interface MessagesRoute {
  readonly url: string;
  /** Header names in lower case, as `Headers` gives them; frozen. */
  readonly headers: readonly (readonly [string, string])[];
  readonly fetch: typeof fetch;
  /** `fetch`'s way to send without a signal, when it is a `createNodeFetch` function. */
  readonly sendAbortable: SendAbortable | undefined;
}

/**
 * The route of one model, asked of the SDK on the first request and kept: `get()` gives it
 * at once from then on. A failed attempt to build it is not kept.
 */
export class MessagesRoutes {
  readonly #client: Anthropic;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;
  #route: MessagesRoute | undefined;
  #pending: Promise<MessagesRoute> | undefined;

  /** For a client whose headers never change between requests: one the model made itself. */
  constructor(client: Anthropic, fetchImpl: typeof fetch, timeoutMs: number) {
    this.#client = client;
    this.#fetch = fetchImpl;
    this.#timeoutMs = timeoutMs;
  }

  /** The route, or the promise of it while the first request builds it. */
  get(): MessagesRoute | Promise<MessagesRoute> {
    if (this.#route) return this.#route;
    this.#pending ??= messagesRoute(this.#client, this.#fetch, this.#timeoutMs).then(
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
 * Whether `params` can go along a route: the SDK turns some body fields into headers of
 * their own request (`user_profile_id`, `workspace_id`), so a request with them goes through
 * the SDK.
 */
export function routable(params: MessageCreateParamsStreaming): boolean {
  const fields = params as { user_profile_id?: unknown; workspace_id?: unknown };
  return fields.user_profile_id == null && fields.workspace_id == null;
}

/**
 * Asks the SDK once what it sends with a streamed `POST /v1/messages` on `client`
 * (`buildRequest`), so that each request is sent with `fetchImpl` directly instead of
 * through the SDK's request machinery: its retry loop (off here: the model retries), its
 * second abort controller and timeout timer, a `Headers` built and validated per request,
 * and its `Stream`, an async iterator with a promise per event.
 */
async function messagesRoute(
  client: Anthropic,
  fetchImpl: typeof fetch,
  timeoutMs: number,
): Promise<MessagesRoute> {
  const { req, url } = await client.buildRequest({
    method: 'post',
    path: '/v1/messages',
    body: {},
    // The SDK sends its timeout in whole milliseconds (and as a header in seconds).
    timeout: Math.max(1, Math.ceil(timeoutMs)),
    stream: true,
  });
  const headers: (readonly [string, string])[] = [];
  new Headers(req.headers as ConstructorParameters<typeof Headers>[0]).forEach((value, name) => {
    headers.push(Object.freeze([name, value] as const));
  });
  // Frozen: the transport builds its header list from it once, not per request.
  Object.freeze(headers);
  return { url, headers, fetch: fetchImpl, sendAbortable: sendAbortableOf(fetchImpl) };
}
