export type { Agent } from './agent/agent.js';
export { AgentBase, type AgentBaseOptions, type RecoverOptions } from './agent/agentBase.js';
export {
  type AgentEvent,
  type HookEventSnapshot,
  isNestedEvent,
  type NestedAgentEvent,
  type ReplyEvent,
} from './agent/agentEvent.js';
export {
  type AgentFactory,
  type AgentHostLike,
  type AgentSource,
  type AgentThreads,
  agentThreads,
} from './agent/agentThreads.js';
export {
  type AgentTool,
  type AgentToolArgs,
  type AgentToolOptions,
  agentTool,
  type StreamingAgent,
} from './agent/agentTool.js';
export type { CallContext } from './agent/callContext.js';
export type {
  CallerRef,
  CallInput,
  CallOptions,
  InterruptContext,
  StructuredOutputSchema,
} from './agent/callOptions.js';
export type {
  EventTap,
  EventTapFunction,
  TapCallOptions,
  TappedEvent,
} from './agent/eventTap.js';
export { type AgentEventOf, isEvent } from './agent/isEvent.js';
export { type HookRoom, type PhaseSink, Phases } from './agent/phases.js';
export {
  type GenerateReason,
  type GuardrailTripMetadata,
  isGenerateReason,
  type ReplyMetadata,
  type ReplyStats,
  replyMetadata,
} from './agent/replyMetadata.js';
export type { StreamOptions } from './agent/streamOptions.js';
export { subAgentBudget, usageReportOf } from './agent/subAgentUsage.js';
export {
  type Budget,
  type BudgetSpent,
  budgetLeft,
  checkBudget,
  checkPriced,
  costOf,
  type ModelPricing,
} from './budget/budget.js';
export { applyCompression } from './context/applyCompression.js';
export {
  type CompressContextOptions,
  type CompressionStrategy,
  type ContextCompression,
  compressContext,
} from './context/compressContext.js';
export {
  type CompressionInfo,
  dropMarkerMsg,
  summaryMsg,
  withCompressionInfo,
} from './context/compressedMsg.js';
export type { ContextRequest, TokenCounter } from './context/contextRequest.js';
export { createTokenCounter } from './context/createTokenCounter.js';
export { CHARS_PER_TOKEN, estimateTokens } from './context/estimateTokens.js';
export {
  type CompressionPlan,
  type CompressionPlanOptions,
  cutPoints,
  DEFAULT_KEEP_RECENT,
  planCompression,
  withSummary,
} from './context/planCompression.js';
export { SUMMARY_PROMPT, summaryRequest, transcript } from './context/summaryRequest.js';
export type { Checkpoint, CheckpointCall, RunStatus } from './durable/checkpoint.js';
export type { DurableOptions } from './durable/durableOptions.js';
export {
  IN_DOUBT_OUTPUT,
  journaledModelStream,
  journaledToolRun,
} from './durable/journaledSteps.js';
export type { StepJournal } from './durable/stepJournal.js';
export { deleteCheckpoint, loadCheckpoint } from './durable/storedCheckpoint.js';
export { unfinishedRuns } from './durable/unfinishedRuns.js';
export {
  AgentBusyError,
  AgentError,
  type AgentErrorCode,
  ApprovalPendingError,
  CallAbortedError,
  CassetteMismatchError,
  ContextWindowError,
  InterruptedError,
  InvalidArgumentError,
  isAbortError,
  ModelError,
  NoReplyError,
  ObserveError,
  PipelineError,
  ScriptExhaustedError,
  SessionConflictError,
  SessionCorruptError,
  StateError,
  StoreUnavailableError,
  StructuredOutputError,
  ToolError,
  UnfinishedRunError,
  UnsupportedStructuredOutputError,
} from './errors.js';
export {
  checkGuardrails,
  DEFAULT_GUARDRAIL_TIMEOUT_MS,
  GUARDRAIL_STAGES,
  type Guardrail,
  type GuardrailContent,
  type GuardrailContext,
  type GuardrailDefinition,
  type GuardrailResult,
  type GuardrailStage,
  type GuardrailToolCall,
  type GuardrailVerdict,
  guardrail,
} from './guardrails/guardrail.js';
export {
  findPii,
  luhnChecks,
  type PiiKind,
  type PiiMatch,
  redactPii,
} from './guardrails/piiDetectors.js';
export { type PiiGuardrailOptions, piiGuardrail } from './guardrails/piiGuardrail.js';
export {
  type GuardedContent,
  type GuardrailReport,
  type GuardrailRunContext,
  runGuardrails,
} from './guardrails/runGuardrails.js';
export { DEFAULT_HOOK_PRIORITY, type Hook, type HookResult } from './hooks/hook.js';
export type {
  ActingChunkEvent,
  ErrorEvent,
  GuardrailEvent,
  HookEvent,
  HookEventOf,
  HookEventType,
  MemoryRecallEvent,
  MemoryWriteEvent,
  ModelResponseInfo,
  PostActingEvent,
  PostCallEvent,
  PostCompressEvent,
  PostReasoningEvent,
  PostSummaryEvent,
  PreActingEvent,
  PreCallEvent,
  PreCompressEvent,
  PreReasoningEvent,
  PreSummaryEvent,
  ReasoningChunkEvent,
  RecalledItem,
  Stoppable,
  ToolResultKind,
} from './hooks/hookEvent.js';
export {
  MIN_SECRET_VALUE_LENGTH,
  type Redacted,
  redactSecrets,
  SECRET_PATTERNS,
  type SecretPattern,
} from './hooks/redactSecrets.js';
export { type RedactSecretsOptions, redactSecretsHook } from './hooks/redactSecretsHook.js';
export { AgentHost } from './host/agentHost.js';
export type { AgentHostCreateContext, AgentHostOptions } from './host/agentHostOptions.js';
export {
  type AdmitJsonPostOptions,
  admitJsonPost,
  type JsonPostAdmission,
} from './http/admitJsonPost.js';
export { isJsonContentType } from './http/isJsonContentType.js';
export { exceedsJsonDepth } from './http/jsonDepth.js';
export { type AllowedOrigins, OriginPolicy, type OriginVerdict } from './http/originPolicy.js';
export { MsgHub, type MsgHubOptions, msgHub } from './hub/msgHub.js';
export { newId } from './internal/newId.js';
export { isJsonObject, type JsonObject, type JsonValue } from './json.js';
export {
  type Bm25Document,
  type Bm25Hit,
  Bm25Index,
  isStopword,
  tokenize,
} from './memory/bm25.js';
export type { Embedder } from './memory/embedder.js';
export {
  cosineSimilarity,
  embedChecked,
  fuseRankings,
  RRF_K,
} from './memory/fuseRankings.js';
export { InMemoryMemory } from './memory/inMemoryMemory.js';
export { InMemoryStore, type InMemoryStoreOptions } from './memory/inMemoryStore.js';
export type { Memory } from './memory/memory.js';
export type {
  MemoryItem,
  MemoryStore,
  Namespace,
  PutOptions,
  ScoredMemoryItem,
  SearchOptions,
} from './memory/memoryStore.js';
export {
  assertNamespace,
  checkPut,
  checkSearch,
  DEFAULT_SEARCH_LIMIT,
  isUnderNamespace,
  jsonEqual,
  matchesFilter,
  valueText,
} from './memory/memoryStoreChecks.js';
export { StoreOnceMemory } from './memory/storeOnceMemory.js';
export {
  type ContentBlock,
  type ImageBlock,
  type TextBlock,
  type ThinkingBlock,
  type ToolResultBlock,
  type ToolUseBlock,
  textBlock,
} from './message/contentBlock.js';
export { freezeJson } from './message/freezeJson.js';
export { freezeMsg, freezeMsgs } from './message/freezeMsg.js';
export {
  assistantMsg,
  type CreateMsgInit,
  createMsg,
  type Msg,
  type MsgOptions,
  type Role,
  systemMsg,
  userMsg,
  withMetadata,
} from './message/msg.js';
export {
  nestPendingCalls,
  type PendingToolCall,
  pendingCallPath,
} from './message/pendingToolCall.js';
export { textOf, toolOutputText, toolResults, toolUses } from './message/readers.js';
export {
  type ReadToolDecisions,
  readToolDecisions,
  restrictDecisions,
  type ToolDecisionMetadata,
  type ToolDecisions,
  toolDecisions,
} from './message/toolDecisions.js';
export type {
  AssistantChatMessage,
  ChatContentPart,
  ChatMessage,
  ChatThinking,
  ChatToolCall,
  SystemChatMessage,
  ToolChatMessage,
  UserChatMessage,
} from './model/chatMessage.js';
export type {
  ChatChunk,
  ChatModel,
  ChatRequest,
  ModelOptions,
  ReasoningField,
  ToolCallDelta,
  ToolChoice,
  ToolSchema,
  Usage,
} from './model/chatModel.js';
export {
  type AssembledToolCall,
  addUsage,
  type ChatResponse,
  ChatResponseAccumulator,
  isValidToolCallIndex,
  MAX_TOOL_CALL_INDEX,
} from './model/chatResponse.js';
export {
  type FormatOptions,
  type Formatter,
  formatMessages,
  sanitizeName,
} from './model/formatMessages.js';
export { isUsageByAgent, type UsageByAgent, usageByAgent } from './model/usageByAgent.js';
export { usageCacheRatio } from './model/usageCacheRatio.js';
export { toWireToolChoice, type WireToolChoice } from './model/wireToolChoice.js';
export { checkAgentOptions } from './options/checkAgentOptions.js';
export { checkOptions, optionNames, suggestOption } from './options/checkOptions.js';
export { type FanoutOptions, fanoutPipeline } from './pipeline/fanoutPipeline.js';
export { type Handoff, handoffOf } from './pipeline/handoffOf.js';
export { type HandoffOptions, handoffPipeline } from './pipeline/handoffPipeline.js';
export { sequentialPipeline } from './pipeline/sequentialPipeline.js';
export { loadSkills } from './skills/loadSkills.js';
export type { Skill } from './skills/skill.js';
export { MAX_SKILL_FILE_BYTES, SkillSet } from './skills/skillSet.js';
export { SKILL_TOOL_NAMES, skillTools } from './skills/skillTools.js';
export {
  type CheckpointBatch,
  type CheckpointWrite,
  registerCheckpointBatch,
} from './state/checkpointBatch.js';
export { InMemorySession } from './state/inMemorySession.js';
export { JsonFileSession } from './state/jsonFileSession.js';
export { assertJsonState, assertSessionKey, type Session } from './state/session.js';
export { STATE_VERSION, type StateModule } from './state/stateModule.js';
export { AGENT_NAME_KEY, type LoadStateOptions } from './state/stateOwner.js';
export {
  checkExpectedVersion,
  isVersionedSession,
  type SaveOptions,
  type VersionedSession,
  type VersionedState,
} from './state/versionedSession.js';
export {
  MAX_TOOL_ARGUMENT_CHARS,
  MAX_TOOL_ARGUMENT_DEPTH,
  type ParsedToolArguments,
  parseToolArguments,
} from './tool/parseToolArguments.js';
export { interruptedOutput } from './tool/runTool.js';
export {
  formatIssues,
  type InferToolArgs,
  type ToolParameters,
  toJsonSchema,
  type ValidationIssue,
  type ValidationResult,
  validateAgainst,
} from './tool/schema.js';
export {
  type NeedsApproval,
  type Tool,
  type ToolApprovalContext,
  type ToolCallRequest,
  type ToolDefinition,
  type ToolEvent,
  type ToolExecutionContext,
  type ToolOutput,
  type ToolResume,
  type ToolReturn,
  type ToolUsageReport,
  type ToolValue,
  tool,
} from './tool/tool.js';
export { toolErrorOf, withToolError } from './tool/toolErrorOf.js';
export { Toolkit, type ToolkitOptions } from './tool/toolkit.js';
export {
  DEFAULT_MAX_RESULT_CHARS,
  type TruncatedResult,
  truncateResult,
} from './tool/truncateResult.js';
