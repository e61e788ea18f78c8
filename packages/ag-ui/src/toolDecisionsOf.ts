import type { ResumeEntry } from '@ag-ui/core';

/**
 * A human's decisions on tool calls that waited for approval: the ids to run, and the ids to
 * deny with the reason the model will read.
 */
export interface ToolApprovalDecisions {
  readonly approve: string[];
  readonly deny: Record<string, string>;
}

/**
 * Reads AG-UI resume entries that answer `tool_approval` interrupts (the interrupt id is the
 * tool call id): `status: 'resolved'` with `payload.approved === true` approves the call;
 * `payload.approved === false` denies it with `payload.reason` (default `denied by the
 * user`); `status: 'cancelled'` denies it with reason `cancelled`. A resolved entry without
 * a boolean `approved` is a denial too, with reason `no decision`, so an unclear answer
 * never runs a tool.
 */
export function toolDecisionsOf(resume: readonly ResumeEntry[]): ToolApprovalDecisions {
  const approve: string[] = [];
  const deny: Record<string, string> = Object.create(null);
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
    if (approved === true) approve.push(id);
    else if (approved === false)
      deny[id] = typeof reason === 'string' && reason !== '' ? reason : 'denied by the user';
    else deny[id] = 'no decision';
  }
  return { approve, deny };
}
