import { AgentError } from '@rxagent/core';

/**
 * An MCP server could not be reached, did not complete the handshake, or failed to list
 * its tools. `server` names it (the command line or the URL); `cause` keeps the original
 * error. Tool *calls* never throw this: they become error tool results the model can read.
 */
export class McpConnectionError extends AgentError {
  override readonly name = 'McpConnectionError';
  readonly code = 'MCP_FAILED';
  constructor(
    message: string,
    readonly server: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
