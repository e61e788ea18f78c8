import type { Interrupt, RunFinishedOutcome } from '@ag-ui/core';
import { type Msg, pendingCallPath, type ToolUseBlock, toolUses } from '@rxagent/core';

/** `Interrupt.reason` of a tool call that waits for a human's approval. */
export const TOOL_APPROVAL_REASON = 'tool_approval';

/**
 * The tool calls a reply leaves waiting for a human, and whether each needs an approval:
 * `approval_required` replies carry them in `metadata.pendingToolCalls` (those listed in
 * `metadata.approvalRequired` need a decision); a `tool_calls_stopped` reply (a hook stopped
 * the loop before acting) is itself the tool-calling reply, and every call of it waits.
 */
export function pendingCallsOf(reply: Msg): { calls: ToolUseBlock[]; needDecision: string[] } {
  const reason = reply.metadata['generateReason'];
  if (reason === 'approval_required') {
    const calls = toolUseBlocks(reply.metadata['pendingToolCalls']);
    const listed = reply.metadata['approvalRequired'];
    const needDecision = Array.isArray(listed)
      ? listed.filter((id): id is string => typeof id === 'string')
      : calls.map((call) => call.id);
    return { calls, needDecision };
  }
  if (reason === 'tool_calls_stopped') {
    const calls = toolUses(reply);
    return { calls, needDecision: calls.map((call) => call.id) };
  }
  return { calls: [], needDecision: [] };
}

/**
 * How a run that ended with `reply` finished, in AG-UI terms: an interrupt outcome with one
 * `tool_approval` interrupt per call that waits for a decision (its `id` is the tool call's
 * id, so a resume entry answers it by that id; a call made inside a sub-agent has its
 * `metadata.path` in the interrupt's `metadata.path`), `cancelled` for an interrupted call,
 * else success.
 */
export function runOutcomeOf(reply: Msg): RunFinishedOutcome {
  if (reply.metadata['generateReason'] === 'interrupted') return { type: 'cancelled' };
  const { calls, needDecision } = pendingCallsOf(reply);
  const interrupts: Interrupt[] = [];
  for (const id of needDecision) {
    const call = calls.find((candidate) => candidate.id === id);
    if (call === undefined) continue;
    const path = pendingCallPath(call);
    const where = path === undefined ? '' : ` (asked by ${path.join(' › ')})`;
    interrupts.push({
      id,
      reason: TOOL_APPROVAL_REASON,
      toolCallId: id,
      message: `Allow ${call.name}${where} to run with ${JSON.stringify(call.input)}?`,
      responseSchema: APPROVAL_RESPONSE_SCHEMA,
      metadata: {
        toolName: call.name,
        input: call.input,
        ...(path !== undefined && { path: [...path] }),
      },
    });
  }
  return interrupts.length > 0 ? { type: 'interrupt', interrupts } : { type: 'success' };
}

/** What a resume entry's `payload` for a `tool_approval` interrupt looks like. */
const APPROVAL_RESPONSE_SCHEMA = {
  type: 'object',
  properties: {
    approved: { type: 'boolean' },
    reason: { type: 'string', description: 'Why the call is denied (shown to the model).' },
    arguments: {
      type: 'object',
      description: 'Run the call with these arguments instead of the proposed ones (approved).',
    },
  },
  required: ['approved'],
};

function toolUseBlocks(value: unknown): ToolUseBlock[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (block): block is ToolUseBlock =>
      typeof block === 'object' &&
      block !== null &&
      block.type === 'tool_use' &&
      typeof block.id === 'string' &&
      typeof block.name === 'string',
  );
}
