import { Agent, request } from 'node:http';
import { Readable } from 'node:stream';

/**
 * A minimal `fetch` over `node:http` with a keep-alive agent, for the `openai` SDK's `fetch`
 * option (plain-HTTP loopback only: enough to measure what undici costs per request).
 */
export function nodeHttpFetch(): typeof fetch {
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const headers: Record<string, string> = {};
      new Headers(init?.headers).forEach((value, key) => {
        headers[key] = value;
      });
      const req = request(
        url,
        {
          method: init?.method ?? 'GET',
          headers,
          agent,
          ...(init?.signal && { signal: init.signal }),
        },
        (res) => {
          const responseHeaders = new Headers();
          for (const [key, value] of Object.entries(res.headers)) {
            if (value !== undefined)
              responseHeaders.set(key, Array.isArray(value) ? value.join(', ') : value);
          }
          const body = Readable.toWeb(res) as ReadableStream<Uint8Array>;
          resolve(
            new Response(body, {
              status: res.statusCode ?? 500,
              statusText: res.statusMessage ?? '',
              headers: responseHeaders,
            }),
          );
        },
      );
      req.once('error', reject);
      const body = init?.body;
      if (typeof body === 'string' || body instanceof Uint8Array) req.end(body);
      else req.end();
    });
}
