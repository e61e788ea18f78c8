import { formatMessages, type ModelOptions } from '@rxagent/core';
import { contextSettings } from '../loop/contextOptions.js';
import type { ReActAgentOptions } from '../reactAgentOptions.js';
import type { ReasoningSetup } from './reasoningStep.js';

/**
 * How a ReActAgent's reasoning steps are set up, from its options: model, sampling options,
 * formatter, and the checked `context` option (throws `InvalidArgumentError` when bad).
 */
export function reasoningSetup(options: ReActAgentOptions): ReasoningSetup {
  const context = contextSettings(options.name, options.context, options.model);
  return {
    model: options.model,
    modelOptions: options.modelOptions ?? ({} satisfies ModelOptions),
    parallelToolCalls: options.parallelToolCalls,
    formatter: options.formatter ?? formatMessages,
    ...(context !== undefined && { context }),
  };
}
