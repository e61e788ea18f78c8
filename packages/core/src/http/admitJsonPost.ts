import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonContentType } from './isJsonContentType.js';
import type { OriginPolicy } from './originPolicy.js';

/** How `admitJsonPost` may be set for one handler. */
export interface AdmitJsonPostOptions {
  /** Which browser origins may use the handler. */
  readonly origins: OriginPolicy;
  /** The media types accepted in `Content-Type` (default `application/json`; see `isJsonContentType`). */
  readonly mediaTypes?: readonly string[];
  /** The `Allow` header of a 405 answer (default `POST`). */
  readonly allow?: string;
  /**
   * The `Access-Control-Allow-Headers` of a preflight answer whose request asks for none, or
   * for something that is not a list of header names (default `content-type`).
   */
  readonly preflightHeaders?: string;
}

/**
 * What `admitJsonPost` made of a request: `admitted` (read its body), `answered` (a CORS
 * preflight it answered with 204: nothing more to do), or `refused`, with the status to
 * answer it with and the handler's message still to send: 403 for a foreign `origin`, 405
 * for another method, 415 for another `contentType` (`'none'` when the header is missing).
 */
export type JsonPostAdmission =
  | { readonly kind: 'admitted' }
  | { readonly kind: 'answered' }
  | { readonly kind: 'refused'; readonly status: 403; readonly origin: string }
  | { readonly kind: 'refused'; readonly status: 405 }
  | { readonly kind: 'refused'; readonly status: 415; readonly contentType: string };

/**
 * The checks an agent's HTTP handler makes on a request's headers before reading its body,
 * in this order: the `Origin` (a foreign page is refused unless `origins` admits it, which
 * then gets CORS headers and its preflight answered), the method (POST only) and the content
 * type (JSON only, so no page can post to the agent without a preflight). Sets the headers
 * each answer needs (`Vary`, `Access-Control-Allow-Origin`, `Allow`, `Accept-Post`) and
 * answers a preflight itself; a refusal's body is the handler's to send, in its protocol's
 * form.
 */
export function admitJsonPost(
  req: IncomingMessage,
  res: ServerResponse,
  options: AdmitJsonPostOptions,
): JsonPostAdmission {
  const verdict = options.origins.verdict(req);
  const origin = req.headers.origin;
  if (origin !== undefined) res.setHeader('vary', 'origin');
  if (verdict === 'forbidden') return { kind: 'refused', status: 403, origin: String(origin) };
  if (verdict === 'allowed' && origin !== undefined) {
    res.setHeader('access-control-allow-origin', origin);
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      preflight(req, res, options.preflightHeaders ?? 'content-type');
      return { kind: 'answered' };
    }
  }
  if (req.method !== 'POST') {
    res.setHeader('allow', options.allow ?? 'POST');
    return { kind: 'refused', status: 405 };
  }
  if (!isJsonContentType(req.headers['content-type'], options.mediaTypes)) {
    res.setHeader('accept-post', 'application/json');
    return { kind: 'refused', status: 415, contentType: req.headers['content-type'] ?? 'none' };
  }
  return { kind: 'admitted' };
}

/** Requested headers echoed in a preflight answer: header names, comma-separated. */
const HEADER_LIST = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/;

function preflight(req: IncomingMessage, res: ServerResponse, fallback: string): void {
  const requested = req.headers['access-control-request-headers'];
  res.writeHead(204, {
    'access-control-allow-methods': 'POST',
    'access-control-allow-headers':
      requested !== undefined && HEADER_LIST.test(requested) ? requested : fallback,
    'access-control-max-age': '600',
  });
  res.end();
}
