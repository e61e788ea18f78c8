import { AgentError } from '@rxagent/core';

/**
 * A remote A2A agent could not be reached or did not answer: its card could not be read, a
 * request failed, or its task ended failed or rejected. `url` names the agent, `taskState`
 * the task's final state when there was a task (`'failed'`, `'rejected'`).
 */
export class A2AError extends AgentError {
  override readonly name = 'A2AError';
  readonly code = 'A2A_FAILED';

  constructor(
    message: string,
    readonly url: string,
    readonly taskState?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
