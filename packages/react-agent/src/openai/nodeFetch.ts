import type {
  Agent as HttpAgent,
  request as httpRequest,
  IncomingMessage,
  RequestOptions,
} from 'node:http';
import type { AgentOptions } from 'node:https';
import { pipeline, type Readable } from 'node:stream';
import { checkOptions, InvalidArgumentError } from '@rxagent/core';
import { type AbortLike, headersOf, NodeResponse } from './nodeResponse.js';

/** Options of `createNodeFetch`. */
export interface NodeFetchOptions {
  /**
   * TLS settings for `https` URLs (a private CA, a client certificate). The
   * `NODE_EXTRA_CA_CERTS` environment variable works without them.
   */
  readonly tls?: Pick<AgentOptions, 'ca' | 'cert' | 'key' | 'rejectUnauthorized'>;
  /**
   * How long an idle connection is kept for reuse, in milliseconds (default 4 000, as
   * Node's `fetch` does): below the 5 s after which many servers (Node's own, uvicorn)
   * close idle connections, so a request never goes out on a socket the server is closing.
   * A request in flight is never cut by it, however long the model takes.
   */
  readonly keepAliveMs?: number;
}

const NULL_BODY = new Set([204, 205, 304]);

/**
 * A `fetch` for the `openai` SDK's `fetch` option, over `node:http` / `node:https` with
 * keep-alive connections: the SDK's requests (a JSON body, a streamed or JSON reply) cost
 * about 15 % less client CPU than through Node's built-in `fetch` (undici), whose WHATWG
 * machinery runs for every request (see BENCHMARKS.md).
 *
 * It answers like `fetch`: a `Response` whose body streams as bytes arrive, decompressed
 * (gzip, deflate, br); the signal's reason (an `AbortError`) when `init.signal` aborts,
 * before the headers or while the body streams (the connection is closed at once); a
 * `TypeError('fetch failed')` with the socket error as `cause` when the connection fails.
 * Redirects are never followed: a 3xx response is returned as it came (as `redirect:
 * 'manual'` would), so a POST is never sent twice and the SDK reports the status and its
 * `location`. Anything beyond what the SDK sends (a `Request` object, a stream or form
 * body, a URL other than http(s) or with credentials, `redirect: 'error'`) is handed to
 * the global `fetch` unchanged.
 */
export function createNodeFetch(options: NodeFetchOptions = {}): typeof fetch {
  checkOptions(options, ['tls', 'keepAliveMs'], 'createNodeFetch');
  checkOptions(options.tls, ['ca', 'cert', 'key', 'rejectUnauthorized'], 'createNodeFetch: tls');
  const targets = new TargetCache();
  const idleMs = options.keepAliveMs ?? 4_000;
  if (!(Number.isFinite(idleMs) && idleMs > 0)) {
    throw new InvalidArgumentError(
      `createNodeFetch: keepAliveMs must be a positive number of milliseconds, got ${idleMs}.`,
    );
  }
  // node:https (TLS) and node:http are loaded on the first request that needs them, not when
  // @rxagent/react-agent is imported: together they add ~10 ms to a cold start.
  let http: Transport | undefined;
  let https: Transport | undefined;
  const transport = (secure: boolean): Transport => {
    if (secure) {
      https ??= transportOf(process.getBuiltinModule('node:https'), idleMs, options.tls);
      return https;
    }
    http ??= transportOf(process.getBuiltinModule('node:http'), idleMs);
    return http;
  };
  /** The target of a request this transport sends itself; `undefined` for the global fetch. */
  const handledTarget = (input: unknown, init: RequestInit | undefined): Target | undefined => {
    const target =
      typeof input === 'string' || input instanceof URL ? targets.get(String(input)) : undefined;
    const body = init?.body;
    const handled =
      target !== undefined &&
      init?.redirect !== 'error' &&
      (body === undefined ||
        body === null ||
        typeof body === 'string' ||
        body instanceof Uint8Array);
    return handled ? target : undefined;
  };
  /**
   * Sends a request; it is aborted through `init.signal`, or through `handle` (a request
   * sent without a signal, so without an `AbortController` and its listeners per request).
   */
  const send = (
    target: Target,
    init: RequestInit | undefined,
    handle?: AbortState,
  ): Promise<Response> => {
    const body = init?.body as string | Uint8Array | null | undefined;
    const { agent, send: request } = transport(target.secure);
    const options = {
      protocol: target.secure ? 'https:' : 'http:',
      hostname: target.hostname,
      port: target.port,
      path: target.path,
      method: init?.method ?? 'GET',
      headers: rawHeaders(init?.headers, target.host, body),
      agent,
      ...(init?.signal && { signal: init.signal }),
    };
    return sendRequest(request, options, body, handle ?? init?.signal ?? undefined, handle);
  };
  const nodeFetch: typeof fetch = (input, init) => {
    const target = handledTarget(input, init);
    return target ? send(target, init) : globalThis.fetch(input, init);
  };
  const sendAbortable: SendAbortable = (url, init) => {
    const target = handledTarget(url, init);
    if (!target) return undefined;
    const handle = new AbortState();
    return { response: send(target, init, handle), abort: (reason) => handle.abort(reason) };
  };
  return Object.defineProperty(nodeFetch, SEND_ABORTABLE, { value: sendAbortable });
}

/**
 * Sends one request. The callbacks that live as long as the request are made by
 * `answerWith` and `failWith`, outside this scope: a closure made here would keep the body
 * (kilobytes of JSON) and the options alive for as long as the server takes to answer.
 */
function sendRequest(
  request: typeof httpRequest,
  options: RequestOptions,
  body: string | Uint8Array | null | undefined,
  abort: AbortLike | undefined,
  handle: AbortState | undefined,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const req = request(options, answerWith(abort, resolve));
    req.on('error', failWith(abort, reject));
    if (handle) handle.request = req;
    req.end(body ?? undefined);
    flattenHeaderBlock(req);
  });
}

/** The response callback: a `Response` whose body streams the decoded readable. */
function answerWith(
  abort: AbortLike | undefined,
  resolve: (response: Response) => void,
): (res: IncomingMessage) => void {
  return (res) => {
    const status = res.statusCode ?? 0;
    const empty = NULL_BODY.has(status);
    // An unread response keeps its socket busy: drain a body that is never exposed.
    if (empty) res.resume();
    const statusText = res.statusMessage ?? '';
    resolve(
      empty
        ? new Response(null, { status, statusText, headers: headersOf(res.rawHeaders) })
        : (new NodeResponse(decoded(res), abort, {
            status,
            statusText,
            rawHeaders: res.rawHeaders,
          }) as unknown as Response),
    );
  };
}

/** The request's error listener; after the headers a failure reaches the body instead. */
function failWith(
  abort: AbortLike | undefined,
  reject: (reason: unknown) => void,
): (error: Error) => void {
  return (error) => {
    if (abort?.aborted) reject(abort.reason);
    else reject(new TypeError('fetch failed', { cause: error }));
  };
}

/** A request sent without a signal: its response, and what aborts it as a signal would. */
export interface AbortableRequest {
  readonly response: Promise<Response>;
  abort(reason?: unknown): void;
}

/**
 * Sends a request like the fetch it belongs to, aborted by the returned handle instead of a
 * signal; `undefined` when the request is one this transport hands to the global fetch.
 */
export type SendAbortable = (
  url: string,
  init: Omit<RequestInit, 'signal'>,
) => AbortableRequest | undefined;

/**
 * Where a `createNodeFetch` function keeps its `SendAbortable` (not part of the public API:
 * `OpenAIChatModel` sends its streamed requests through it, with no `AbortController` per
 * request).
 */
export const SEND_ABORTABLE: unique symbol = Symbol('rxagent.sendAbortable');

/**
 * How `fetchImpl` sends a request without a signal, when it is a `createNodeFetch` function
 * (else `undefined`): a model's transport aborts its request through the returned handle,
 * with no `AbortController` and no listener per request.
 */
export function sendAbortableOf(fetchImpl: typeof fetch): SendAbortable | undefined {
  return (fetchImpl as { [SEND_ABORTABLE]?: SendAbortable })[SEND_ABORTABLE];
}

/** The abort state of a request sent without a signal. */
class AbortState implements AbortLike {
  aborted = false;
  reason: unknown;
  /** The request, once sent. */
  request: { destroy(error?: Error): unknown } | undefined;

  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason ?? new DOMException('This operation was aborted', 'AbortError');
    this.request?.destroy(this.reason instanceof Error ? this.reason : undefined);
  }
}

/**
 * Node keeps a request's header block (`_header`, not public API) until the response ends,
 * as the tree of concatenations that built it: about 1.5 KB for the SDK's dozen headers.
 * Reading one character flattens it in place to a string of its length. A no-op if a
 * future Node stores it differently.
 */
function flattenHeaderBlock(req: object): void {
  const header: unknown = (req as { _header?: unknown })._header;
  if (typeof header === 'string') header.charCodeAt(0);
}

/** A keep-alive agent and the `request` function of `node:http` or `node:https`. */
interface Transport {
  readonly agent: HttpAgent;
  readonly send: typeof httpRequest;
}

function transportOf(
  module: { Agent: new (options: AgentOptions) => HttpAgent; request: typeof httpRequest },
  idleMs: number,
  tls?: NodeFetchOptions['tls'],
): Transport {
  // An agent's `timeout` closes a socket idle in its pool; a request's socket only emits it.
  const agent = new module.Agent({ keepAlive: true, timeout: idleMs, ...tls });
  return { agent, send: module.request };
}

/** Where a request goes, parsed once per URL. */
interface Target {
  readonly secure: boolean;
  readonly hostname: string;
  readonly port: string;
  readonly path: string;
  /** The `host` header. */
  readonly host: string;
}

/**
 * Parsed request URLs (an SDK client asks for the same few URLs again and again); `undefined`
 * for a URL this transport leaves to the global `fetch` (not http(s), or with credentials).
 */
class TargetCache {
  readonly #targets = new Map<string, Target | undefined>();

  get(url: string): Target | undefined {
    if (this.#targets.has(url)) return this.#targets.get(url);
    const target = parseTarget(url);
    if (this.#targets.size >= 64) this.#targets.clear();
    this.#targets.set(url, target);
    return target;
  }
}

function parseTarget(url: string): Target | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const secure = parsed.protocol === 'https:';
  if ((!secure && parsed.protocol !== 'http:') || parsed.username || parsed.password) {
    return undefined;
  }
  return {
    secure,
    // node:http takes an IPv6 host without its brackets.
    hostname: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsed.port,
    path: `${parsed.pathname}${parsed.search}`,
    host: parsed.host,
  };
}

/**
 * The request headers as a flat `[name, value, ...]` list (names lower-cased, as `Headers`
 * has them), which `node:http` writes as given instead of copying them into its own header
 * map one `setHeader` at a time. `host` and `content-length` are this transport's, as with
 * `fetch`; `accept-encoding` defaults to what it can decode.
 */
function rawHeaders(
  init: RequestInit['headers'],
  host: string,
  body: string | Uint8Array | null | undefined,
): string[] {
  const out = baseHeaders(init, host).slice();
  if (typeof body === 'string') out.push('content-length', String(Buffer.byteLength(body)));
  else if (body) out.push('content-length', String(body.byteLength));
  return out;
}

/**
 * The flat header list of a frozen header array (`OpenAIChatModel` sends the same one with
 * every request of a model), built once per array and host.
 */
const frozenHeaders = new WeakMap<object, { readonly host: string; readonly list: string[] }>();

/** `rawHeaders` without `content-length`: kept for a frozen `init` array. */
function baseHeaders(init: RequestInit['headers'], host: string): string[] {
  const cacheable = Array.isArray(init) && Object.isFrozen(init);
  if (cacheable) {
    const cached = frozenHeaders.get(init);
    if (cached?.host === host) return cached.list;
  }
  const out = ['host', host];
  let acceptEncoding = false;
  const add = (value: string, name: string): void => {
    const key = name.toLowerCase();
    if (key === '' || key === 'host' || key === 'content-length') return;
    if (key === 'accept-encoding') acceptEncoding = true;
    out.push(key, value);
  };
  if (init instanceof Headers) init.forEach(add);
  else if (Array.isArray(init)) for (const [name, value] of init) add(value ?? '', name ?? '');
  else if (init) for (const [name, value] of Object.entries(init)) add(String(value), name);
  if (!acceptEncoding) out.push('accept-encoding', 'gzip, deflate, br');
  if (cacheable) frozenHeaders.set(init, { host, list: out });
  return out;
}

/**
 * A header's value from the raw list, without building `res.headers` (an object of every
 * header that would live as long as the response).
 */
function rawHeader(raw: readonly string[], name: string): string | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]!.toLowerCase() === name) return raw[i + 1];
  return undefined;
}

/** The body with its content coding removed; an unknown coding passes through, as in `fetch`. */
function decoded(res: IncomingMessage): Readable {
  const coding = rawHeader(res.rawHeaders, 'content-encoding')?.trim().toLowerCase();
  if (coding === undefined || coding === 'identity') return res;
  const zlib = process.getBuiltinModule('node:zlib');
  const decoder =
    coding === 'gzip' || coding === 'x-gzip'
      ? zlib.createGunzip()
      : coding === 'deflate'
        ? zlib.createInflate()
        : coding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!decoder) return res;
  // pipeline destroys both sides on error or early close and reports it on the decoder.
  return pipeline(res, decoder, () => {});
}
