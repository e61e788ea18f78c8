import { AgentError } from '@rxagent/core';
import type { WireError } from './wireEvent.js';

/**
 * A `RemoteAgent`'s run failed on its worker: `remote` is the worker's error (name, message
 * and code, as they crossed processes), quoted in the message. A run given up after
 * `maxDeliveries` deliveries (every worker that took it stopped before finishing it) has
 * `remote.name` `'DeliveryLimitError'` and `remote.deliveries` the count; its request is
 * kept in the dead-letter stream `<queue>:dead`.
 */
export class RemoteRunError extends AgentError {
  override readonly name = 'RemoteRunError';
  readonly code = 'REMOTE_RUN_FAILED';
  constructor(
    readonly agentName: string,
    readonly runId: string,
    readonly remote: WireError,
  ) {
    super(
      `The remote run ${runId} of "${agentName}" failed on its worker: ${remote.name}: ${remote.message}`,
    );
  }
}

/**
 * A `RemoteAgent`'s run showed no sign of life (no event, no worker heartbeat, Redis not
 * answering) for `timeoutMs`: no worker serves the queue, or Redis is down. `cause` keeps
 * the last Redis error, if any.
 */
export class RemoteRunTimeoutError extends AgentError {
  override readonly name = 'RemoteRunTimeoutError';
  readonly code = 'REMOTE_RUN_FAILED';
  constructor(
    readonly agentName: string,
    readonly runId: string,
    readonly timeoutMs: number,
    options?: ErrorOptions,
  ) {
    super(
      `The remote run ${runId} of "${agentName}" showed no sign of life for ${timeoutMs} ms: is an AgentWorker serving the queue, and is Redis up?`,
      options,
    );
  }
}
