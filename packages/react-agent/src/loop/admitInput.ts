import { InvalidArgumentError, type Msg, toolResults } from '@rxagent/core';
import { admitDecisions, type Decisions } from './approval.js';
import type { Step } from './step.js';
import type { Transcript } from './transcript.js';

const NO_DECISIONS: Decisions = { approve: [], deny: {} };

/**
 * Records a call's input and picks its first step (human in the loop): no input with open
 * tool calls runs them; tool results answer open calls (unknown ids, and a second result
 * for one id, are an `InvalidArgumentError` thrown before memory changes) and the missing
 * ones run; any other message first gives each open call a `[cancelled]` error result,
 * then reasoning starts. A `toolDecisions()` Msg (not stored) resumes the open calls with
 * those decisions (see `admitDecisions` for what it rejects); supplied results without one
 * decide nothing, so a missing call whose tool needs approval is denied, not run.
 */
export function admitInput(transcript: Transcript, input: readonly Msg[]): Step {
  const { decisions, rest: msgs } = admitDecisions(transcript, input);
  const supplied = msgs.filter((msg) => msg.role === 'tool');
  const others = msgs.filter((msg) => msg.role !== 'tool');
  const openIds = new Set(transcript.openCalls.map((call) => call.id));
  const unknown = supplied.flatMap(toolResults).filter((result) => !openIds.has(result.id));
  if (unknown.length > 0) {
    throw new InvalidArgumentError(
      `${transcript.agentName}: tool result(s) for unknown tool call id(s) ${unknown.map((r) => r.id).join(', ')}; pending calls: ${[...openIds].join(', ') || 'none'}.`,
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
      `${transcript.agentName}: more than one result for tool call id(s) ${[...repeated].join(', ')}; send one result per pending call.`,
    );
  }
  transcript.add(supplied);
  const missing = transcript.openCalls;
  if (missing.length > 0 && others.length === 0) {
    const invalidArguments = transcript.invalidArguments;
    // Results for some calls are an answer, not an approval: a missing call that needs
    // approval is then denied (`no decision`) rather than run.
    const decided = decisions ?? (supplied.length > 0 ? NO_DECISIONS : undefined);
    return {
      kind: 'act',
      calls: missing,
      invalidArguments,
      ...(decided && { decisions: decided }),
    };
  }
  transcript.close(
    missing,
    (call) => `[cancelled] Tool "${call.name}" was not run: a new message arrived first.`,
    'cancelled',
  );
  transcript.add(others);
  return { kind: 'reason' };
}
