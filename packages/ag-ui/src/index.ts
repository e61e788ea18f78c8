export type { AllowedOrigins } from '@rxagent/core';
export {
  agentInputOf,
  asToolDecisions,
  denyAsToolResults,
  type ResumeInput,
} from './agentInputOf.js';
export { AgUiEventMapper, type AgUiRunIds } from './agUiEventMapper.js';
export {
  type AgUiHandlerOptions,
  agUiHandler,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_INPUT_DEPTH,
  type GetAgent,
  type RequestHandler,
} from './agUiHandler.js';
export { pendingCallsOf, runOutcomeOf, TOOL_APPROVAL_REASON } from './runOutcome.js';
export { toAgUiEvents } from './toAgUiEvents.js';
export { type ToolApprovalDecisions, toolDecisionsOf } from './toolDecisionsOf.js';
