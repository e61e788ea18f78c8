import {
  isJsonObject,
  type JsonObject,
  type Msg,
  type PendingToolCall,
  type ToolUseBlock,
  toolResults,
  toolUses,
} from '@rxagent/core';

/**
 * A tool call left open because calls inside it wait for approval (a sub-agent called by
 * `agent.asTool()` stopped with `approval_required`): the sub-agent's name, its pending
 * calls as this agent lists them (each with `metadata.path`) and the ids needing a decision.
 * Kept on the tool-calling assistant Msg as `metadata.suspendedToolCalls[callId]`, so it is
 * part of memory, and of state.
 */
export interface SuspendedToolCall {
  readonly agent: string;
  readonly pendingToolCalls: readonly PendingToolCall[];
  readonly approvalRequired: readonly string[];
}

/** Tool calls awaiting results, and the raw text of any whose arguments were not JSON. */
export interface PendingToolCalls {
  readonly calls: readonly ToolUseBlock[];
  readonly invalidArguments: JsonObject;
  /** The open calls that wait on a sub-agent's approval stop, by call id. */
  readonly suspended: Readonly<Record<string, SuspendedToolCall>>;
}

const NONE: PendingToolCalls = { calls: [], invalidArguments: {}, suspended: {} };

/**
 * The tool calls of the last tool-calling assistant message that have no result yet: what a
 * human-in-the-loop stop (or a cut call) left open. Empty when every call has its result.
 */
export function pendingToolCalls(messages: readonly Msg[]): PendingToolCalls {
  const answered = new Set<string>();
  for (let index = messages.length - 1; index >= 0; index--) {
    const msg = messages[index]!;
    if (msg.role === 'tool') {
      for (const result of toolResults(msg)) answered.add(result.id);
      continue;
    }
    if (msg.role !== 'assistant') return NONE;
    const calls = toolUses(msg).filter((call) => !answered.has(call.id));
    if (calls.length === 0) return NONE;
    const invalid = msg.metadata['invalidToolArguments'];
    return {
      calls,
      invalidArguments: isJsonObject(invalid) ? invalid : {},
      suspended: suspendedOf(msg, calls),
    };
  }
  return NONE;
}

/** The well-formed `suspendedToolCalls` records of `msg` for the open `calls`. */
export function suspendedOf(
  msg: Msg,
  calls: readonly ToolUseBlock[],
): Readonly<Record<string, SuspendedToolCall>> {
  const records = msg.metadata['suspendedToolCalls'];
  if (!isJsonObject(records)) return {};
  const out: Record<string, SuspendedToolCall> = {};
  for (const call of calls) {
    const record = records[call.id];
    if (isSuspended(record)) out[call.id] = record;
  }
  return out;
}

function isSuspended(value: unknown): value is SuspendedToolCall {
  if (!isJsonObject(value) || typeof value['agent'] !== 'string') return false;
  const { pendingToolCalls, approvalRequired } = value;
  return (
    Array.isArray(pendingToolCalls) &&
    pendingToolCalls.every(
      (call) => isJsonObject(call) && call['type'] === 'tool_use' && typeof call['id'] === 'string',
    ) &&
    Array.isArray(approvalRequired) &&
    approvalRequired.every((id) => typeof id === 'string')
  );
}
