/**
 * Attribute names of the OpenTelemetry GenAI semantic conventions (development status)
 * that rxagent records, plus rxagent's own. Kept as constants so a rename in a later
 * convention release is a one-line change.
 */
export const GenAi = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  agentName: 'gen_ai.agent.name',
  agentId: 'gen_ai.agent.id',
  agentDescription: 'gen_ai.agent.description',
  requestModel: 'gen_ai.request.model',
  requestTemperature: 'gen_ai.request.temperature',
  requestTopP: 'gen_ai.request.top_p',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  requestSeed: 'gen_ai.request.seed',
  requestStopSequences: 'gen_ai.request.stop_sequences',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  responseModel: 'gen_ai.response.model',
  usageCacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  usageCacheWriteTokens: 'gen_ai.usage.cache_creation.input_tokens',
  usageInputTokens: 'gen_ai.usage.input_tokens',
  usageOutputTokens: 'gen_ai.usage.output_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  systemInstructions: 'gen_ai.system_instructions',
  errorType: 'error.type',
  /** rxagent: the call (or the model request or tool run cut by it) was interrupted. */
  interrupted: 'rxagent.interrupted',
  /** rxagent: the reply's `metadata.generateReason` (why the call ended). */
  generateReason: 'rxagent.generate_reason',
  /** rxagent: the call was abandoned (unsubscribed) before it ended. */
  cancelled: 'rxagent.cancelled',
  /** rxagent: the share of input tokens read from a prompt cache, 0 to 1 (`cachedInputTokens / inputTokens`). */
  usageCacheHitRatio: 'rxagent.usage.cache_hit_ratio',
  /** rxagent: the models a fallback chain skipped before one answered, with why (JSON). */
  fallbackSkipped: 'rxagent.fallback.skipped',
} as const;
