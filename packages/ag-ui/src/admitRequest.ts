import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonContentType, type OriginPolicy } from '@rxagent/core';
import { RequestRejection, sendRejection } from './requestRejection.js';

/**
 * The checks made on the headers, before the body is read: origin, method, content type.
 * Answers the request (a rejection or a preflight) and returns false when it goes no further.
 */
export function admitRequest(
  req: IncomingMessage,
  res: ServerResponse,
  origins: OriginPolicy,
): boolean {
  const verdict = origins.verdict(req);
  const origin = req.headers.origin;
  if (origin !== undefined) res.setHeader('vary', 'origin');
  if (verdict === 'forbidden') {
    sendRejection(
      res,
      new RequestRejection(
        403,
        `Origin ${origin} may not run this agent: a page of another origin is allowed only when agUiHandler's allowedOrigins admits it.`,
      ),
    );
    return false;
  }
  if (verdict === 'allowed' && origin !== undefined) {
    res.setHeader('access-control-allow-origin', origin);
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      preflight(req, res);
      return false;
    }
  }
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST');
    sendRejection(res, new RequestRejection(405, 'POST an AG-UI RunAgentInput as JSON.'));
    return false;
  }
  if (!isJsonContentType(req.headers['content-type'])) {
    const got = req.headers['content-type'] ?? 'none';
    res.setHeader('accept-post', 'application/json');
    sendRejection(
      res,
      new RequestRejection(
        415,
        `Content-Type ${got} is not accepted: POST the RunAgentInput as application/json.`,
      ),
    );
    return false;
  }
  return true;
}

/** Requested headers echoed in a preflight answer: header names, comma-separated. */
const HEADER_LIST = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/;

function preflight(req: IncomingMessage, res: ServerResponse): void {
  const requested = req.headers['access-control-request-headers'];
  res.writeHead(204, {
    'access-control-allow-methods': 'POST',
    'access-control-allow-headers':
      requested !== undefined && HEADER_LIST.test(requested) ? requested : 'content-type',
    'access-control-max-age': '600',
  });
  res.end();
}
