export { budgetSpentText, UsageMeter } from './budget/usageMeter.js';
export type { CircuitOptions, CircuitPass, CircuitState } from './fallback/circuitBreaker.js';
export {
  FallbackChatModel,
  type FallbackChatModelOptions,
  type FallbackModelStatus,
  type FallbackSkip,
} from './fallback/fallbackChatModel.js';
export { isOutage } from './fallback/isOutage.js';
export type { FinishGuard, FinishGuardInput, FinishVerdict } from './judge/finishGuard.js';
export { JudgeGuard, type JudgeGuardOptions, parseVerdict } from './judge/judgeGuard.js';
export type { ApprovalRule } from './loop/approvalRules.js';
export { CallStats } from './loop/callStats.js';
export type { ContextOptions } from './loop/contextOptions.js';
export type { HandoffOption, HandoffTarget } from './loop/handoffs.js';
export { type PendingToolCalls, pendingToolCalls } from './loop/pendingToolCalls.js';
export { ReActCallState } from './loop/reactCallState.js';
export type { RememberedApproval, RememberedApprovals } from './loop/rememberedApprovals.js';
export type { FinalAnswerDecision, FinalStep, GenerateReason } from './loop/step.js';
export { Transcript } from './loop/transcript.js';
export { AgentLongTermMemory, type LongTermMemoryMode } from './memory/agentLongTermMemory.js';
export type { OffloadOptions } from './offload/offloadOptions.js';
export { readResultTool } from './offload/readResultTool.js';
export {
  type OffloadedResult,
  offloadNotice,
  READ_RESULT_TOOL,
  ResultOffload,
} from './offload/resultOffload.js';
export {
  type DirectRoute,
  DirectRoutes,
  errorBody,
  routeOf,
} from './openai/directRoute.js';
export {
  type AttemptLimits,
  type AttemptTimeout,
  EventStreamAttempt,
} from './openai/eventStreamAttempt.js';
export {
  type AbortableRequest,
  createNodeFetch,
  type NodeFetchOptions,
  type SendAbortable,
} from './openai/nodeFetch.js';
export { OpenAIChatModel, type OpenAIChatModelOptions } from './openai/openAIChatModel.js';
export { OpenAIEmbedder, type OpenAIEmbedderOptions } from './openai/openAIEmbedder.js';
export {
  type AttemptSink,
  type HeaderReader,
  parseRetryAfterMs,
  type RetryConfig,
  type RetryPolicy,
  runWithRetries,
  type StartAttempt,
} from './openai/retry.js';
export {
  isOpen,
  type Plan,
  planText,
  SUBTASK_STATES,
  type Subtask,
  type SubtaskState,
} from './plan/plan.js';
export { PlanNotebook } from './plan/planNotebook.js';
export { PLAN_TOOL_NAMES, planTools } from './plan/planTools.js';
export { ReActAgent } from './reactAgent.js';
export type { ReActAgentOptions } from './reactAgentOptions.js';
export {
  encodingForModel,
  type OpenAIEncoding,
  type OpenAITokenCounterOptions,
  openAITokenCounter,
} from './tokens/openAITokenCounter.js';
