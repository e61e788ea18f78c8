import type { ResumeEntry } from '@ag-ui/core';
import { isJsonObject, type JsonObject } from '@rxagent/core';

/**
 * A human's decisions on tool calls that waited for approval: the ids to run, the ids to
 * deny with the reason the model will read, and the ids to run with edited arguments.
 */
export interface ToolApprovalDecisions {
  readonly approve: string[];
  readonly deny: Record<string, string>;
  /** Calls approved with other arguments (`payload.arguments`), by id; absent when none. */
  readonly edit?: Record<string, JsonObject>;
}

/**
 * Reads AG-UI resume entries that answer `tool_approval` interrupts (the interrupt id is the
 * tool call id): `status: 'resolved'` with `payload.approved === true` approves the call;
 * `payload.approved === false` denies it with `payload.reason` (default `denied by the
 * user`); `status: 'cancelled'` denies it with reason `cancelled`. A resolved entry without
 * a boolean `approved` is a denial too, with reason `no decision`, so an unclear answer
 * never runs a tool. An approval whose payload has an `arguments` object runs the call with
 * those arguments instead (`edit`; the agent validates them like the model's).
 */
export function toolDecisionsOf(resume: readonly ResumeEntry[]): ToolApprovalDecisions {
  const approve: string[] = [];
  const deny: Record<string, string> = Object.create(null);
  const edit: Record<string, JsonObject> = {};
  for (const entry of resume) {
    const id = entry.interruptId;
    if (entry.status === 'cancelled') {
      deny[id] = 'cancelled';
      continue;
    }
    const payload: unknown = entry.payload;
    const approved =
      typeof payload === 'object' && payload !== null
        ? (payload as Record<string, unknown>)['approved']
        : undefined;
    const reason =
      typeof payload === 'object' && payload !== null
        ? (payload as Record<string, unknown>)['reason']
        : undefined;
    const edited =
      typeof payload === 'object' && payload !== null
        ? (payload as Record<string, unknown>)['arguments']
        : undefined;
    if (approved === true && isJsonObject(edited)) edit[id] = edited;
    else if (approved === true) approve.push(id);
    else if (approved === false)
      deny[id] = typeof reason === 'string' && reason !== '' ? reason : 'denied by the user';
    else deny[id] = 'no decision';
  }
  return Object.keys(edit).length > 0 ? { approve, deny, edit } : { approve, deny };
}
