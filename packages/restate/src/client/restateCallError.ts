import { AgentError } from '@rxagent/core';

/**
 * A call through Restate's ingress failed: the handler ended with a terminal error (the
 * agent's call failed, or `decide` had nothing pending), or the ingress refused the request.
 * `status` is the HTTP status the ingress answered; the message quotes its error.
 */
export class RestateCallError extends AgentError {
  override readonly name = 'RestateCallError';
  readonly code = 'REMOTE_RUN_FAILED';
  constructor(
    readonly agentName: string,
    readonly handler: string,
    readonly status: number,
    readonly remoteMessage: string,
    options?: ErrorOptions,
  ) {
    super(
      `The Restate handler ${handler} of "${agentName}" failed (HTTP ${status}): ${remoteMessage}`,
      options,
    );
  }
}
