import {
  type AgentEvent,
  createMsg,
  type Hook,
  type Msg,
  type ToolUseBlock,
  toolUses,
  userMsg,
} from '@rxagent/core';
import { pendingToolCalls, type ReActAgent } from '@rxagent/react-agent';
import { renderEvents } from '@rxagent/terminal';
import { filter, lastValueFrom, map, type Observable } from 'rxjs';
import { save } from './interruptPart.js';
import type { RunContext } from './runContext.js';
import { askYesNo } from './userInput.js';

/** Tools that only run after a human said yes. */
const NEEDS_APPROVAL = new Set(['publish_report']);

/** What part 3 did. */
export interface ApprovalOutcome {
  /** The reply that ended the first call: stopped, with the tool call pending. */
  readonly stopped: Msg;
  readonly pending: readonly ToolUseBlock[];
  readonly approved: boolean;
  /** The reply after resuming. */
  readonly reply: Msg;
}

/**
 * Part 3: a postReasoning hook stops the loop when the model wants to publish; the program
 * shows the pending call, asks for approval (auto-approves when not in a terminal), and
 * resumes with `agent.call()`-style input: none to run the call, or an error result to decline it.
 */
export async function approvalPart(
  agent: ReActAgent,
  context: RunContext,
): Promise<ApprovalOutcome> {
  const { out } = context;
  out.write('\n── part 3: a tool call stopped for approval\n');
  agent.addHook(approvalGate(context));
  const request = 'Looks good. Publish it to #ops.';
  out.write(`user: ${request}\n`);
  const stopped = await replyOf(agent.stream(userMsg(request)), out);
  const pending = pendingToolCalls(agent.memory.messages()).calls;
  // The pending call is part of the saved state: it could be approved in another process.
  await save(agent, context);
  for (const call of pending) {
    out.write(`awaiting approval (pendingToolCalls): ${call.name} ${summarizeInput(call.input)}\n`);
  }
  const approved = await decide(pending, context);
  context.log(approved ? 'approved' : 'declined');
  const resumed = approved ? agent.stream() : agent.stream(declined(pending));
  const reply = await replyOf(resumed, out);
  await save(agent, context);
  return { stopped, pending, approved, reply };
}

function approvalGate(context: RunContext): Hook {
  return {
    name: 'approvalGate',
    onEvent(event) {
      if (event.type !== 'postReasoning') return;
      if (toolUses(event.reply).some((call) => NEEDS_APPROVAL.has(call.name))) {
        context.log('stopped for approval');
        event.stopAgent();
      }
    },
  };
}

async function decide(pending: readonly ToolUseBlock[], context: RunContext): Promise<boolean> {
  if (pending.length === 0) return false;
  const names = pending.map((call) => call.name).join(', ');
  if (context.interactive) return askYesNo(`Approve ${names}?`, context.input, context.out);
  context.out.write(`approve ${names}? yes (auto-approved: stdin is not a terminal)\n`);
  return true;
}

/** Error results for the calls the user declined, so the conversation stays valid. */
function declined(pending: readonly ToolUseBlock[]): Msg {
  return createMsg({
    name: 'user',
    role: 'tool',
    content: pending.map((call) => ({
      type: 'tool_result' as const,
      id: call.id,
      name: call.name,
      output: '[declined] The user did not approve this call; do not retry it.',
      isError: true,
    })),
  });
}

function replyOf(events: Observable<AgentEvent>, out: RunContext['out']): Promise<Msg> {
  return lastValueFrom(
    events.pipe(
      renderEvents({ out }),
      filter((event) => event.type === 'reply'),
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
