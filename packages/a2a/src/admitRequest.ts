import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonContentType, type OriginPolicy } from '@rxagent/core';
import { AGENT_CARD_PATH } from './a2aCard.js';
import { rpcError, sendJson } from './sendRpcResult.js';

/**
 * The checks made on a JSON-RPC request's headers, before its body is read: origin, method,
 * content type. Answers the request (a refusal, as a JSON-RPC error with its HTTP status, or
 * a CORS preflight) and returns false when it goes no further.
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
    const message = `Origin ${origin} may not call this agent: a page of another origin is allowed only when a2aHandler's allowedOrigins admits it.`;
    sendJson(res, 403, rpcError(null, -32600, message));
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
    res.setHeader('allow', 'GET, POST');
    const message = `POST a JSON-RPC request, or GET ${AGENT_CARD_PATH}.`;
    sendJson(res, 405, rpcError(null, -32600, message));
    return false;
  }
  if (!isJsonContentType(req.headers['content-type'], A2A_MEDIA_TYPES)) {
    const got = req.headers['content-type'] ?? 'none';
    res.setHeader('accept-post', 'application/json');
    const message = `Content-Type ${got} is not accepted: POST the JSON-RPC request as application/json.`;
    sendJson(res, 415, rpcError(null, -32600, message));
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
      requested !== undefined && HEADER_LIST.test(requested)
        ? requested
        : 'content-type, a2a-version',
    'access-control-max-age': '600',
  });
  res.end();
}

/** What A2A clients send: JSON-RPC's `application/json` and A2A's own `application/a2a+json`. */
const A2A_MEDIA_TYPES: readonly string[] = ['application/json', 'application/a2a+json'];
