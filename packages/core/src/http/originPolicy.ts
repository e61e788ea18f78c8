import type { IncomingMessage } from 'node:http';
import { InvalidArgumentError } from '../errors.js';

/**
 * Which browser origins besides the server's own may run the agent: a list of origins
 * (`'https://app.example.com'`, `'http://localhost:5173'`) or a function deciding for each
 * `Origin` header (its exact text, e.g. `'null'` for a sandboxed page).
 */
export type AllowedOrigins = readonly string[] | ((origin: string) => boolean);

/** What the policy says of a request. */
export type OriginVerdict =
  /** No `Origin` header: not a browser's cross-site request (curl, a server, a test). */
  | 'none'
  /** The page is the server's own (the Origin's host is the request's `Host`). */
  | 'same'
  /** Another origin the allow-list admits: answered with CORS headers. */
  | 'allowed'
  | 'forbidden';

/**
 * Decides from a request's `Origin` header whether a browser page may use the handler.
 * Same-origin pages and requests without `Origin` are always allowed; other origins only
 * when `allowed` admits them.
 */
export class OriginPolicy {
  readonly #origins: ReadonlySet<string>;
  readonly #test: ((origin: string) => boolean) | undefined;

  /** `owner` names the handler in the errors about a bad `allowedOrigins` (`agUiHandler`). */
  constructor(allowed: AllowedOrigins | undefined, owner = 'handler') {
    if (typeof allowed === 'function') {
      this.#origins = new Set();
      this.#test = allowed;
      return;
    }
    if (allowed !== undefined && !Array.isArray(allowed)) {
      throw new InvalidArgumentError(
        `${owner}: allowedOrigins must be an array of origins or a function (origin) => boolean.`,
      );
    }
    this.#origins = new Set((allowed ?? []).map((entry) => normalizedOrigin(entry, owner)));
    this.#test = undefined;
  }

  /** What the policy says of `req`, from its `Origin` and `Host` headers. */
  verdict(req: IncomingMessage): OriginVerdict {
    const origin = req.headers.origin;
    if (origin === undefined) return 'none';
    const parsed = parseOrigin(origin);
    const host = req.headers.host?.toLowerCase();
    if (parsed !== undefined && host !== undefined && parsed.host === host) return 'same';
    if (this.#test !== undefined) return this.#test(origin) ? 'allowed' : 'forbidden';
    return parsed !== undefined && this.#origins.has(parsed.origin) ? 'allowed' : 'forbidden';
  }
}

function parseOrigin(origin: string): URL | undefined {
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? undefined : url;
  } catch {
    return undefined;
  }
}

function normalizedOrigin(entry: unknown, owner: string): string {
  const url = typeof entry === 'string' ? parseOrigin(entry) : undefined;
  const bare =
    url !== undefined &&
    url.pathname === '/' &&
    url.search === '' &&
    url.hash === '' &&
    url.username === '' &&
    url.password === '';
  if (url === undefined || !bare) {
    throw new InvalidArgumentError(
      `${owner}: allowedOrigins entry ${JSON.stringify(entry)} is not an origin: write the scheme, host and port only, e.g. "https://app.example.com" or "http://localhost:5173".`,
    );
  }
  return url.origin;
}
