import {
  type AgentEvent,
  isEvent,
  type Msg,
  replyMetadata,
  type ToolUseBlock,
  toolDecisions,
  userMsg,
} from '@rxagent/core';
import type { ReActAgent } from '@rxagent/react-agent';
import { renderEvents } from '@rxagent/terminal';
import { filter, lastValueFrom, map, type Observable } from 'rxjs';
import { save } from './interruptPart.js';
import type { RunContext } from './runContext.js';
import { askYesNo } from './userInput.js';

/** What part 3 did. */
export interface ApprovalOutcome {
  /** The reply that ended the first call: `approval_required`, with the tool call pending. */
  readonly stopped: Msg;
  /** The calls that wait for a decision (`metadata.pendingToolCalls` named in `approvalRequired`). */
  readonly pending: readonly ToolUseBlock[];
  readonly approved: boolean;
  /** The reply after resuming. */
  readonly reply: Msg;
}

/**
 * Part 3: `publish_report` is defined with `needsApproval: true`, so when the model wants to
 * publish, the call ends before acting (`generateReason: 'approval_required'`). The program
 * shows the pending call, asks for approval, and resumes with `toolDecisions({ approve })`
 * or `toolDecisions({ deny: { id: reason } })`. Without a terminal nobody can answer, so the
 * call is denied — a human-in-the-loop step never approves itself — unless `--approve` was
 * given (a human's decision made in advance).
 */
export async function approvalPart(
  agent: ReActAgent,
  context: RunContext,
): Promise<ApprovalOutcome> {
  const { out } = context;
  out.write('\n── part 3: a tool call that waits for approval\n');
  const request = 'Looks good. Publish it to #ops.';
  out.write(`user: ${request}\n`);
  const stopped = await replyOf(agent.stream(userMsg(request)), out);
  const meta = replyMetadata(stopped);
  if (meta.generateReason === 'approval_required') context.log('stopped for approval');
  const waiting = new Set(meta.approvalRequired ?? []);
  const pending = (meta.pendingToolCalls ?? []).filter((call) => waiting.has(call.id));
  // The pending call is part of the saved state: it could be approved in another process.
  await save(agent, context);
  for (const call of pending) {
    out.write(`awaiting approval: ${call.name} ${summarizeInput(call.input)}\n`);
  }
  const approved = await decide(pending, context);
  context.log(approved ? 'approved' : 'declined');
  const ids = pending.map((call) => call.id);
  const reason = 'The user did not approve this call; do not retry it.';
  const decisions = approved
    ? toolDecisions({ approve: ids })
    : toolDecisions({ deny: Object.fromEntries(ids.map((id) => [id, reason])) });
  const reply = await replyOf(agent.stream(decisions), out);
  await save(agent, context);
  return { stopped, pending, approved, reply };
}

async function decide(pending: readonly ToolUseBlock[], context: RunContext): Promise<boolean> {
  if (pending.length === 0) return false;
  const names = pending.map((call) => call.name).join(', ');
  if (context.interactive) return askYesNo(`Approve ${names}?`, context.input, context.out);
  if (context.approve) {
    context.out.write(`approve ${names}? yes (approved in advance with --approve)\n`);
    return true;
  }
  context.out.write(
    `approve ${names}? no: stdin is not a terminal, so nobody can approve it and it is denied (run in a terminal, or pass --approve to approve it in advance)\n`,
  );
  return false;
}

function replyOf(events: Observable<AgentEvent>, out: RunContext['out']): Promise<Msg> {
  return lastValueFrom(
    events.pipe(
      renderEvents({ out }),
      filter((event) => isEvent(event, 'reply')),
      map((event) => event.msg),
    ),
  );
}

function summarizeInput(input: unknown): string {
  if (typeof input !== 'object' || input === null) return JSON.stringify(input);
  const shown = Object.entries(input).map(([key, value]) =>
    typeof value === 'string' && value.length > 40
      ? [key, `${value.slice(0, 37)}… (${value.length} chars)`]
      : [key, value],
  );
  return JSON.stringify(Object.fromEntries(shown));
}
