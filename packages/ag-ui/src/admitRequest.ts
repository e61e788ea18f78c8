import type { IncomingMessage, ServerResponse } from 'node:http';
import { admitJsonPost, type JsonPostAdmission, type OriginPolicy } from '@rxagent/core';
import { RequestRejection, sendRejection } from './requestRejection.js';

/**
 * The checks made on the headers, before the body is read: origin, method, content type
 * (core's `admitJsonPost`). Answers the request (a rejection or a preflight) and returns
 * false when it goes no further.
 */
export function admitRequest(
  req: IncomingMessage,
  res: ServerResponse,
  origins: OriginPolicy,
): boolean {
  const admission = admitJsonPost(req, res, { origins });
  if (admission.kind === 'admitted') return true;
  if (admission.kind === 'refused') sendRejection(res, rejection(admission));
  return false;
}

/** The plain-text answer to a refused request. */
function rejection(refused: Extract<JsonPostAdmission, { kind: 'refused' }>): RequestRejection {
  switch (refused.status) {
    case 403:
      return new RequestRejection(
        403,
        `Origin ${refused.origin} may not run this agent: a page of another origin is allowed only when agUiHandler's allowedOrigins admits it.`,
      );
    case 405:
      return new RequestRejection(405, 'POST an AG-UI RunAgentInput as JSON.');
    case 415:
      return new RequestRejection(
        415,
        `Content-Type ${refused.contentType} is not accepted: POST the RunAgentInput as application/json.`,
      );
  }
}
