import { InvalidArgumentError, type Memory, type Msg, toolResults } from '@rxagent/core';
import { pendingToolCalls } from './pendingToolCalls.js';
import type { Step } from './step.js';
import { errorResult, toolResultMsg } from './toolResultMsg.js';

/**
 * Records a call's input and picks its first step (human in the loop): no input
 * with pending tool calls runs them; tool results answer pending calls (unknown ids, and a
 * second result for one id, are an `InvalidArgumentError` thrown before memory changes) and the missing ones run; any other
 * message first gives each pending call a `[cancelled]` error result, then reasoning starts.
 */
export function admitInput(memory: Memory, agentName: string, msgs: readonly Msg[]): Step {
  const pending = pendingToolCalls(memory.messages());
  const supplied = msgs.filter((msg) => msg.role === 'tool');
  const others = msgs.filter((msg) => msg.role !== 'tool');
  const pendingIds = new Set(pending.calls.map((call) => call.id));
  const unknown = supplied.flatMap(toolResults).filter((result) => !pendingIds.has(result.id));
  if (unknown.length > 0) {
    throw new InvalidArgumentError(
      `${agentName}: tool result(s) for unknown tool call id(s) ${unknown.map((r) => r.id).join(', ')}; pending calls: ${[...pendingIds].join(', ') || 'none'}.`,
    );
  }
  const answered = new Set<string>();
  const repeated = new Set<string>();
  for (const result of supplied.flatMap(toolResults)) {
    if (answered.has(result.id)) repeated.add(result.id);
    answered.add(result.id);
  }
  if (repeated.size > 0) {
    throw new InvalidArgumentError(
      `${agentName}: more than one result for tool call id(s) ${[...repeated].join(', ')}; send one result per pending call.`,
    );
  }
  memory.add(supplied);
  const missing = pending.calls.filter((call) => !answered.has(call.id));
  if (missing.length > 0 && others.length === 0) {
    return { kind: 'act', calls: missing, invalidArguments: pending.invalidArguments };
  }
  for (const call of missing) {
    memory.add(
      toolResultMsg(
        agentName,
        errorResult(
          call,
          `[cancelled] Tool "${call.name}" was not run: a new message arrived first.`,
        ),
      ),
    );
  }
  memory.add(others);
  return { kind: 'reason' };
}
