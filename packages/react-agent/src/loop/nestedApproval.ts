import {
  type JsonObject,
  type PendingToolCall,
  restrictDecisions,
  type ToolDecisions,
  type ToolResume,
  type ToolUseBlock,
  toolUses,
} from '@rxagent/core';
import type { SuspendedCall } from '../acting/actingStep.js';
import type { Decisions } from './approval.js';
import type { SuspendedToolCall } from './pendingToolCalls.js';
import type { FinalStep } from './step.js';
import type { Transcript } from './transcript.js';

/**
 * The calls of `calls` that wait on a sub-agent's approval stop, each with how it goes on:
 * the human's `decisions` about that sub-agent's calls only (`restrictDecisions`), or none
 * (every one approved) when the resuming call had no input. `undefined` when none waits.
 */
export function resumedCalls(
  transcript: Transcript,
  calls: readonly ToolUseBlock[],
  decisions: Decisions | undefined,
): ReadonlyMap<string, ToolResume> | undefined {
  const suspended = transcript.suspendedCalls;
  let resumed: Map<string, ToolResume> | undefined;
  for (const call of calls) {
    const record = suspended[call.id];
    if (record === undefined) continue;
    resumed ??= new Map();
    // `call()` with no input approves every waiting call, nested ones included.
    if (decisions === undefined || decisions.all === true) resumed.set(call.id, {});
    else resumed.set(call.id, { decisions: decisionsFor(record.pendingToolCalls, decisions) });
  }
  return resumed;
}

/**
 * The end of a call whose tool batch left calls waiting on sub-agents' approval stops: the
 * calls stay open, which sub-agent each waits on is recorded on the tool-calling Msg
 * (`metadata.suspendedToolCalls`), and the reply (that Msg) lists every waiting inner call
 * with its `metadata.path` in `pendingToolCalls` and the ids needing a decision in
 * `approvalRequired`.
 */
export function nestedApprovalStep(
  transcript: Transcript,
  suspended: readonly SuspendedCall[],
): FinalStep {
  const records: Record<string, SuspendedToolCall> = {};
  const pendingToolCalls: PendingToolCall[] = [];
  const approvalRequired: string[] = [];
  for (const { call, pending } of suspended) {
    records[call.id] = {
      agent: pending.agent,
      pendingToolCalls: pending.pendingToolCalls,
      approvalRequired: pending.approvalRequired,
    };
    pendingToolCalls.push(...pending.pendingToolCalls);
    approvalRequired.push(...pending.approvalRequired);
  }
  transcript.recordSuspended(records);
  const first = suspended[0]!.call.id;
  const reply = transcript
    .messages()
    .findLast((msg) => msg.role === 'assistant' && toolUses(msg).some((c) => c.id === first));
  if (reply === undefined) throw new Error(`the tool call ${first} is not in memory`);
  const metadata = { pendingToolCalls, approvalRequired } as unknown as JsonObject;
  return { kind: 'final', reply, reason: 'approval_required', metadata };
}

/**
 * The decisions a sub-agent gets about the calls waiting inside it (`pending`, its own and
 * deeper ones): the ids restricted to those calls, `remember` to the tools they call, and who
 * decided; the time a decision was read stays with the caller's record.
 */
function decisionsFor(pending: readonly PendingToolCall[], decisions: Decisions): ToolDecisions {
  const ids = new Set(pending.map((call) => call.id));
  const names = new Set(pending.map((call) => call.name));
  const { approve, deny, edit } = restrictDecisions(decisions, ids);
  const remember = decisions.remember.filter((name) => names.has(name));
  return {
    approve,
    deny,
    ...(Object.keys(edit).length > 0 && { edit }),
    ...(remember.length > 0 && { remember }),
    ...(decisions.by !== undefined && { by: decisions.by }),
  };
}
