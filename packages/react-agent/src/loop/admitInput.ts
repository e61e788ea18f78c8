import { InvalidArgumentError, type Msg, toolResults } from '@rxagent/core';
import { admitDecisions, noDecisions } from './approval.js';
import type { Step } from './step.js';
import type { Transcript } from './transcript.js';

/** The default longest single input message, in characters. */
export const DEFAULT_MAX_INPUT_CHARS = 1_000_000;

/** Checks a ReActAgent's `maxInputChars` option; throws `InvalidArgumentError` when bad. */
export function inputCharLimit(agentName: string, value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_INPUT_CHARS;
  if (value === Number.POSITIVE_INFINITY || (Number.isInteger(value) && value > 0)) return value;
  throw new InvalidArgumentError(
    `ReActAgent "${agentName}": maxInputChars must be a positive whole number of characters (or Infinity), got ${String(value)}.`,
  );
}

/**
 * Records a call's input and picks its first step (human in the loop): no input with open
 * tool calls runs them; tool results answer open calls (unknown ids, and a second result
 * for one id, are an `InvalidArgumentError` thrown before memory changes) and the missing
 * ones run; any other message first gives each open call a `[cancelled]` error result,
 * then reasoning starts. A `toolDecisions()` Msg (not stored) resumes the open calls with
 * those decisions (see `admitDecisions` for what it rejects); supplied results without one
 * decide nothing, so a missing call whose tool needs approval is denied, not run. A message
 * longer than `maxInputChars` characters (its text and tool-result text) is an
 * `InvalidArgumentError` thrown before memory changes.
 */
export function admitInput(
  transcript: Transcript,
  input: readonly Msg[],
  maxInputChars: number = DEFAULT_MAX_INPUT_CHARS,
  isTool?: (name: string) => boolean,
): Step {
  for (const msg of input) checkLength(transcript.agentName, msg, maxInputChars);
  const { decisions, rest: msgs } = admitDecisions(transcript, input, isTool);
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
    // approval is then denied (`no decision`) rather than run. No input approves them all.
    const decided = decisions ?? noDecisions(supplied.length === 0);
    return { kind: 'act', calls: missing, invalidArguments, decisions: decided };
  }
  transcript.close(
    missing,
    (call) => `[cancelled] Tool "${call.name}" was not run: a new message arrived first.`,
    'cancelled',
  );
  transcript.addInput(others);
  return { kind: 'reason' };
}

function checkLength(agentName: string, msg: Msg, maxChars: number): void {
  const chars = msgChars(msg);
  if (chars <= maxChars) return;
  throw new InvalidArgumentError(
    `${agentName}: an input message (${msg.role}, id ${msg.id}) has ${chars} characters, more than maxInputChars ${maxChars}; nothing was stored. Shorten it, send it as a file the agent can read with a tool, or raise maxInputChars.`,
  );
}

/** The characters a Msg sends as text: text blocks and tool-result text. */
function msgChars(msg: Msg): number {
  let chars = 0;
  for (const block of msg.content) {
    if (block.type === 'text') chars += block.text.length;
    else if (block.type === 'tool_result') {
      if (typeof block.output === 'string') chars += block.output.length;
      else for (const part of block.output) if (part.type === 'text') chars += part.text.length;
    }
  }
  return chars;
}
