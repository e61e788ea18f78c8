export { AgentBase, type AgentBaseOptions } from './agent/agentBase.js';
export type { AgentEvent, HookEventSnapshot, ReplyEvent } from './agent/agentEvent.js';
export type {
  CallContext,
  CallOptions,
  InterruptContext,
  StructuredOutputSchema,
} from './agent/callContext.js';
export {
  AgentBusyError,
  AgentError,
  type AgentErrorCode,
  InterruptedError,
  InvalidArgumentError,
  isAbortError,
  ModelError,
  NoReplyError,
  PipelineError,
  ScriptExhaustedError,
  SessionConflictError,
  SessionCorruptError,
  StateError,
  StoreUnavailableError,
  StructuredOutputError,
  ToolError,
  UnsupportedStructuredOutputError,
} from './errors.js';
export { DEFAULT_HOOK_PRIORITY, type Hook, type HookResult } from './hooks/hook.js';
export type {
  ActingChunkEvent,
  ErrorEvent,
  HookEvent,
  HookEventOf,
  HookEventType,
  PostActingEvent,
  PostCallEvent,
  PostReasoningEvent,
  PostSummaryEvent,
  PreActingEvent,
  PreCallEvent,
  PreReasoningEvent,
  PreSummaryEvent,
  ReasoningChunkEvent,
  Stoppable,
} from './hooks/hookEvent.js';
export { MsgHub, type MsgHubOptions, msgHub } from './hub/msgHub.js';
export { newId } from './internal/newId.js';
export { isJsonObject, type JsonObject, type JsonValue } from './json.js';
export { InMemoryMemory } from './memory/inMemoryMemory.js';
export type { Memory } from './memory/memory.js';
export {
  type ContentBlock,
  type ImageBlock,
  type TextBlock,
  type ThinkingBlock,
  type ToolResultBlock,
  type ToolUseBlock,
  textBlock,
} from './message/contentBlock.js';
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
export { textOf, toolOutputText, toolResults, toolUses } from './message/readers.js';
export type {
  AssistantChatMessage,
  ChatContentPart,
  ChatMessage,
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
} from './model/chatResponse.js';
export {
  type FormatOptions,
  type Formatter,
  formatMessages,
  sanitizeName,
} from './model/formatMessages.js';
export { toWireToolChoice, type WireToolChoice } from './model/wireToolChoice.js';
export { type FanoutOptions, fanoutPipeline } from './pipeline/fanoutPipeline.js';
export { sequentialPipeline } from './pipeline/sequentialPipeline.js';
export { InMemorySession } from './state/inMemorySession.js';
export { JsonFileSession } from './state/jsonFileSession.js';
export { assertJsonState, assertSessionKey, type Session } from './state/session.js';
export { STATE_VERSION, type StateModule } from './state/stateModule.js';
export {
  formatIssues,
  toJsonSchema,
  type ValidationIssue,
  type ValidationResult,
  validateAgainst,
} from './tool/schema.js';
export {
  type InferToolArgs,
  type Tool,
  type ToolCallRequest,
  type ToolDefinition,
  type ToolExecutionContext,
  type ToolOutput,
  type ToolParameters,
  type ToolReturn,
  tool,
} from './tool/tool.js';
export { type ToolEvent, Toolkit, type ToolkitOptions } from './tool/toolkit.js';
