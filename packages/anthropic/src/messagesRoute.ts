import type Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import { type DirectRoute, routeOf } from '@rxagent/react-agent';

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
 * (`buildRequest`: the URL, authentication, the API version, user agent and platform
 * headers, `defaultHeaders`), so that each request is sent with `fetchImpl` directly instead
 * of through the SDK's request machinery: its retry loop (off here: the model retries), its
 * second abort controller and timeout timer, a `Headers` built and validated per request,
 * and its `Stream`, an async iterator with a promise per event. Only for a client whose
 * headers never change between requests: one the model made itself.
 */
export async function messagesRoute(
  client: Anthropic,
  fetchImpl: typeof fetch,
  timeoutMs: number,
): Promise<DirectRoute> {
  const { req, url } = await client.buildRequest({
    method: 'post',
    path: '/v1/messages',
    body: {},
    // The SDK takes its timeout in whole milliseconds (and sends it as a header in seconds).
    timeout: Math.max(1, Math.ceil(timeoutMs)),
    stream: true,
  });
  return routeOf(url, req.headers as ConstructorParameters<typeof Headers>[0], fetchImpl);
}
