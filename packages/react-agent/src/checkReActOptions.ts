import { InvalidArgumentError } from '@rxagent/core';
import type { ReActAgentOptions } from './reactAgentOptions.js';

/**
 * Checks the options a ReActAgent cannot run without and returns its `maxIters` (default 10).
 * Throws `InvalidArgumentError` naming the agent and the bad option.
 */
export function checkReActOptions(options: ReActAgentOptions): number {
  if (typeof options.model?.stream !== 'function') {
    throw new InvalidArgumentError(
      `ReActAgent "${options.name}": options.model must be a ChatModel.`,
    );
  }
  const maxIters = options.maxIters ?? 10;
  if (!Number.isInteger(maxIters) || maxIters < 1) {
    throw new InvalidArgumentError(
      `ReActAgent "${options.name}": maxIters must be a positive integer, got ${maxIters}.`,
    );
  }
  return maxIters;
}
