import type { BudgetSpent } from '../budget/budget.js';
import { isJsonObject, type JsonObject } from '../json.js';
import type { ToolUseBlock } from '../message/contentBlock.js';
import type { Msg } from '../message/msg.js';
import type { PendingToolCall } from '../message/pendingToolCall.js';
import type { Usage } from '../model/chatModel.js';
import { isUsageByAgent, type UsageByAgent } from '../model/usageByAgent.js';

/**
 * Why a call ended (`reply.metadata.generateReason`):
 * - `stop`: the model answered (or a hook stopped a reply without tool calls);
 * - `tool_calls_stopped` / `acting_stopped`: a postReasoning / postActing hook stopped the loop;
 * - `approval_required`: a tool call needs a human decision (resume with `toolDecisions`);
 * - `interrupted`: `interrupt()` cut the call;
 * - `max_iterations` / `tool_failures`: the step budget ran out, or too many reasoning steps
 *   in a row had only failing tool calls; a tool-less summary answered;
 * - `structured_output`: a validated structured response;
 * - `handoff`: the call was handed to another agent;
 * - `length`: the model's final answer was cut by the output-token limit (`finish_reason:
 *   'length'`); the reply holds what it said before the cut. A cut reply that calls tools
 *   does not end the call: calls whose arguments arrived whole run, a call whose arguments
 *   the cut left invalid gets an error result the model reads, and the loop goes on. A cut
 *   summary keeps its own reason (`max_iterations`, `tool_failures`), with
 *   `metadata.finishReason: 'length'`;
 * - `budget`: the call's `budget` was spent before a model request; the reply says which
 *   limit and how much was used (`metadata.budget`), and no request was made past it;
 * - `guardrail`: an input or output guardrail tripped; the reply says why and
 *   `metadata.guardrail` names it (`{ guardrail, stage, reason? }`). No tool of a refused
 *   reply ran; after an input trip no model request was made.
 */
export type GenerateReason =
  | 'stop'
  | 'tool_calls_stopped'
  | 'acting_stopped'
  | 'approval_required'
  | 'interrupted'
  | 'max_iterations'
  | 'tool_failures'
  | 'structured_output'
  | 'handoff'
  | 'length'
  | 'budget'
  | 'guardrail';

/** What one ReActAgent call did (`reply.metadata.stats`). */
export interface ReplyStats {
  /** Reasoning steps taken. */
  readonly iterations: number;
  /** Requests to the agent's model (reasoning and summary steps; a finish guard's are apart). */
  readonly modelCalls: number;
  /** Tool calls the loop handled: run, denied, or answered as duplicates. */
  readonly toolCalls: number;
  /** Milliseconds from the start of the agent's work to its reply. */
  readonly elapsedMs: number;
}

/** The metadata the framework puts on a reply, typed; read it with `replyMetadata(msg)`. */
export interface ReplyMetadata {
  readonly generateReason?: GenerateReason;
  /**
   * The call's token usage, summed over its requests: the agent's own model's and that of
   * the sub-agents it called as tools (`asTool`).
   */
  readonly usage?: Usage;
  /**
   * `usage` by agent name (the agent itself included; deeper sub-agents flattened by name,
   * summed when a name appears twice); set once a sub-agent's usage counted.
   */
  readonly usageByAgent?: UsageByAgent;
  /** What the call's requests cost in dollars (sub-agents included), when its budget has `pricing`. */
  readonly costUsd?: number;
  /** With `generateReason: 'budget'`: which limit was reached and what was used. */
  readonly budget?: BudgetSpent;
  /** The token usage of a finish guard's judge model, kept apart from `usage`. */
  readonly judgeUsage?: Usage;
  readonly stats?: ReplyStats;
  /** The call was interrupted (`generateReason: 'interrupted'`). */
  readonly interrupted?: boolean;
  /** The Msg holds the text of a reply cut mid-stream. */
  readonly partial?: boolean;
  /**
   * With `approval_required`: the tool calls waiting (approved or not): the reply's own, or,
   * when the stop came from inside a sub-agent, that agent's, each with `metadata.path`.
   */
  readonly pendingToolCalls?: readonly PendingToolCall[];
  /** With `approval_required`: the ids of the calls that need a decision. */
  readonly approvalRequired?: readonly string[];
  /** The model gave an empty final answer twice (after one reminder). */
  readonly emptyAnswer?: boolean;
  /** A finish guard's verdict about the accepted answer. */
  readonly finishGuard?: JsonObject;
  /** A structured-output agent's validated response. */
  readonly response?: unknown;
  /** With `generateReason: 'guardrail'`: the guardrail that tripped, its stage and reason. */
  readonly guardrail?: GuardrailTripMetadata;
}

/** `metadata.guardrail` of a reply refused by a guardrail. */
export interface GuardrailTripMetadata {
  readonly guardrail: string;
  readonly stage: 'input' | 'output';
  readonly reason?: string;
}

const REASONS: ReadonlySet<string> = new Set<GenerateReason>([
  'stop',
  'tool_calls_stopped',
  'acting_stopped',
  'approval_required',
  'interrupted',
  'max_iterations',
  'tool_failures',
  'structured_output',
  'handoff',
  'length',
  'budget',
  'guardrail',
]);

/** Whether `value` is one of the known `GenerateReason`s. */
export function isGenerateReason(value: unknown): value is GenerateReason {
  return typeof value === 'string' && REASONS.has(value);
}

/**
 * The framework's metadata of `msg`, typed. Each field is kept only when it has the
 * documented shape (metadata can come from saved state or a remote agent), so reading a
 * field never lies about its type; other metadata keys are left out.
 */
export function replyMetadata(msg: Msg): ReplyMetadata {
  const m = msg.metadata;
  const out: { -readonly [K in keyof ReplyMetadata]: ReplyMetadata[K] } = {};
  if (isGenerateReason(m['generateReason'])) out.generateReason = m['generateReason'];
  if (isUsage(m['usage'])) out.usage = m['usage'];
  if (isUsage(m['judgeUsage'])) out.judgeUsage = m['judgeUsage'];
  if (isUsageByAgent(m['usageByAgent'])) out.usageByAgent = m['usageByAgent'];
  if (typeof m['costUsd'] === 'number') out.costUsd = m['costUsd'];
  const budget = m['budget'];
  if (
    isJsonObject(budget) &&
    (budget['limit'] === 'maxTokens' || budget['limit'] === 'maxCostUsd') &&
    typeof budget['usedTokens'] === 'number'
  )
    out.budget = budget as unknown as BudgetSpent;
  if (isStats(m['stats'])) out.stats = m['stats'];
  for (const key of ['interrupted', 'partial', 'emptyAnswer'] as const) {
    if (typeof m[key] === 'boolean') out[key] = m[key];
  }
  const pending = m['pendingToolCalls'];
  if (Array.isArray(pending) && pending.every(isToolUse))
    out.pendingToolCalls = pending as unknown as PendingToolCall[];
  const trip = m['guardrail'];
  if (
    isJsonObject(trip) &&
    typeof trip['guardrail'] === 'string' &&
    (trip['stage'] === 'input' || trip['stage'] === 'output')
  )
    out.guardrail = trip as unknown as GuardrailTripMetadata;
  const ids = m['approvalRequired'];
  if (Array.isArray(ids) && ids.every((id) => typeof id === 'string'))
    out.approvalRequired = ids as string[];
  if (isJsonObject(m['finishGuard'])) out.finishGuard = m['finishGuard'];
  if (m['response'] !== undefined) out.response = m['response'];
  return out;
}

function isUsage(value: unknown): value is Usage {
  return (
    isJsonObject(value) &&
    typeof value['inputTokens'] === 'number' &&
    typeof value['outputTokens'] === 'number' &&
    typeof value['totalTokens'] === 'number'
  );
}

function isStats(value: unknown): value is ReplyStats {
  return (
    isJsonObject(value) &&
    ['iterations', 'modelCalls', 'toolCalls', 'elapsedMs'].every(
      (key) => typeof value[key] === 'number',
    )
  );
}

function isToolUse(value: unknown): value is ToolUseBlock {
  return (
    isJsonObject(value) &&
    value['type'] === 'tool_use' &&
    typeof value['id'] === 'string' &&
    typeof value['name'] === 'string'
  );
}
