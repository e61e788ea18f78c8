import { type Msg, replyMetadata, StructuredOutputError, type ToolUseBlock } from '@rxagent/core';

/**
 * A structured call (`callStructured`) stopped before its response because tool calls wait
 * for a human decision (`generateReason: 'approval_required'`, a tool with
 * `needsApproval`). `pending` lists those calls (id, name, arguments) and `reply` is the
 * paused reply; decide and resume with the same schema:
 * `agent.callStructured(toolDecisions({ approve: ids }), schema)` (or `{ deny: { id: reason } }`).
 * Its `name` stays `StructuredOutputError` (a subclass of it): tell it apart with `instanceof`.
 */
export class ApprovalRequiredError extends StructuredOutputError {
  /** The tool calls that need a decision, in call order. */
  readonly pending: readonly ToolUseBlock[];

  constructor(
    agentName: string,
    readonly reply: Msg,
  ) {
    const meta = replyMetadata(reply);
    const waiting = new Set(meta.approvalRequired ?? []);
    const pending = (meta.pendingToolCalls ?? []).filter((call) => waiting.has(call.id));
    const listed = pending.map((call) => `${call.name} (${call.id})`).join(', ') || 'none listed';
    const ids = JSON.stringify(pending.map((call) => call.id));
    const lastProblem = `tool calls need approval before a response can be produced: ${listed}`;
    super(
      `Agent "${agentName}": ${lastProblem}. Approve or deny them, then resume with the same schema: callStructured(toolDecisions({ approve: ${ids} }), schema), or toolDecisions({ deny: { id: reason } }).`,
      { lastProblem },
    );
    this.pending = pending;
  }
}
