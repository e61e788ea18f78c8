import { checkOptions, formatMessages, type ModelOptions, optionNames } from '@rxagent/core';
import { contextSettings } from '../loop/contextOptions.js';
import type { ReActAgentOptions } from '../reactAgentOptions.js';
import type { ReasoningSetup } from './reasoningStep.js';

const MODEL_OPTION_KEYS = optionNames<ModelOptions>({
  temperature: true,
  topP: true,
  maxTokens: true,
  seed: true,
  stop: true,
  extra: true,
});

/**
 * How a ReActAgent's reasoning steps are set up, from its options: model, sampling options,
 * formatter, and the checked `context` option (throws `InvalidArgumentError` when bad, and a
 * TypeError for an unknown key of `modelOptions` or `context`).
 */
export function reasoningSetup(options: ReActAgentOptions): ReasoningSetup {
  checkOptions(
    options.modelOptions,
    MODEL_OPTION_KEYS,
    `ReActAgent "${options.name}": modelOptions`,
  );
  const context = contextSettings(options.name, options.context, options.model);
  return {
    model: options.model,
    modelOptions: options.modelOptions ?? ({} satisfies ModelOptions),
    parallelToolCalls: options.parallelToolCalls,
    formatter: options.formatter ?? formatMessages,
    ...(context !== undefined && { context }),
  };
}
