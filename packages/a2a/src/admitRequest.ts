import type { IncomingMessage, ServerResponse } from 'node:http';
import { admitJsonPost, type JsonPostAdmission, type OriginPolicy } from '@rxagent/core';
import { AGENT_CARD_PATH } from './a2aCard.js';
import { rpcError, sendJson } from './sendRpcResult.js';

/**
 * The checks made on a JSON-RPC request's headers, before its body is read: origin, method,
 * content type (core's `admitJsonPost`). Answers the request (a refusal, as a JSON-RPC error
 * with its HTTP status, or a CORS preflight) and returns false when it goes no further.
 */
export function admitRequest(
  req: IncomingMessage,
  res: ServerResponse,
  origins: OriginPolicy,
): boolean {
  const admission = admitJsonPost(req, res, {
    origins,
    mediaTypes: A2A_MEDIA_TYPES,
    allow: 'GET, POST',
    preflightHeaders: 'content-type, a2a-version',
  });
  if (admission.kind === 'admitted') return true;
  if (admission.kind === 'refused') {
    sendJson(res, admission.status, rpcError(null, -32600, refusalMessage(admission)));
  }
  return false;
}

/** The JSON-RPC error message of a refused request. */
function refusalMessage(refused: Extract<JsonPostAdmission, { kind: 'refused' }>): string {
  switch (refused.status) {
    case 403:
      return `Origin ${refused.origin} may not call this agent: a page of another origin is allowed only when a2aHandler's allowedOrigins admits it.`;
    case 405:
      return `POST a JSON-RPC request, or GET ${AGENT_CARD_PATH}.`;
    case 415:
      return `Content-Type ${refused.contentType} is not accepted: POST the JSON-RPC request as application/json.`;
  }
}

/** What A2A clients send: JSON-RPC's `application/json` and A2A's own `application/a2a+json`. */
const A2A_MEDIA_TYPES: readonly string[] = ['application/json', 'application/a2a+json'];
