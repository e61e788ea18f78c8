import {
  InvalidArgumentError,
  type JsonObject,
  type Msg,
  readToolDecisions,
  type Tool,
  type ToolDecisions,
  type ToolUseBlock,
  validateAgainst,
} from '@rxagent/core';
import { concatMap, defer, from, map, type Observable, of } from 'rxjs';
import { type ActingOutcome, type ActingSetup, actingStep } from '../acting/actingStep.js';
import type { ReActCallState } from './reactCallState.js';
import type { Step } from './step.js';
import type { Transcript } from './transcript.js';

/** Decisions read from a `toolDecisions()` Msg. */
export type Decisions = Required<ToolDecisions>;

/** The reason recorded for a call that needs approval and got no decision. */
export const NO_DECISION = 'no decision';

/**
 * Splits a call's input into the decisions of its `toolDecisions()` Msg (if any) and the
 * other messages. Throws `InvalidArgumentError`, before memory changes, for more than one
 * decisions Msg, decisions sent with other (non-tool) messages, decisions when no tool call
 * waits, and decisions naming ids that do not wait.
 */
export function admitDecisions(
  transcript: Transcript,
  msgs: readonly Msg[],
): { readonly decisions: Decisions | undefined; readonly rest: readonly Msg[] } {
  const found = msgs.map((msg) => readToolDecisions(msg));
  const decided = found.filter((decisions) => decisions !== undefined);
  if (decided.length === 0) return { decisions: undefined, rest: msgs };
  const where = transcript.agentName;
  const rest = msgs.filter((_, index) => found[index] === undefined);
  if (decided.length > 1)
    throw new InvalidArgumentError(`${where}: send one toolDecisions() message per call.`);
  if (rest.some((msg) => msg.role !== 'tool'))
    throw new InvalidArgumentError(
      `${where}: toolDecisions() resumes pending tool calls and cannot be sent with other messages; send them in the next call.`,
    );
  const decisions = decided[0]!;
  const open = new Set(transcript.openCalls.map((call) => call.id));
  // The calls waiting inside a suspended call (a sub-agent's) are decided here too.
  for (const record of Object.values(transcript.suspendedCalls))
    for (const call of record.pendingToolCalls) open.add(call.id);
  if (open.size === 0)
    throw new InvalidArgumentError(`${where}: toolDecisions() was sent but no tool call waits.`);
  const unknown = [...decisions.approve, ...Object.keys(decisions.deny)].filter(
    (id) => !open.has(id),
  );
  if (unknown.length > 0)
    throw new InvalidArgumentError(
      `${where}: toolDecisions() names unknown tool call id(s) ${unknown.join(', ')}; pending calls: ${[...open].join(', ')}.`,
    );
  return { decisions, rest };
}

/**
 * The ids of `calls` whose tool needs approval, in call order. Cold; emits once. A call
 * whose tool is unknown or disabled, or whose arguments are invalid, needs none (it will
 * not run anyway); a predicate that throws or rejects counts as needing approval. Without
 * any predicate to ask, it answers synchronously.
 */
export function approvalRequired(
  state: ReActCallState,
  calls: readonly ToolUseBlock[],
  invalidArguments: JsonObject,
): Observable<string[]> {
  return defer(() => {
    const answers = calls.map((call) => needsApproval(state, call, invalidArguments));
    if (answers.every((answer) => typeof answer === 'boolean'))
      return of(calls.filter((_, index) => answers[index]).map((call) => call.id));
    return from(Promise.all(answers)).pipe(
      map((needs) => calls.filter((_, index) => needs[index]).map((call) => call.id)),
    );
  });
}

/**
 * After a reply with tool calls was stored: act on them, or end the call with
 * `approval_required` (the calls stay open, like a `tool_calls_stopped` stop) when any of
 * them needs approval. The step itself when no tool of the batch has an approval rule, else
 * an Observable emitting it once.
 */
export function approvalStep(
  state: ReActCallState,
  reply: Msg,
  calls: readonly ToolUseBlock[],
  invalidArguments: JsonObject,
): Step | Observable<Step> {
  // No tool of the batch has an approval rule: nothing to ask, the step is decided now.
  if (!calls.some((call) => approvalRule(state, call) !== undefined))
    return { kind: 'act', calls, invalidArguments };
  return approvalRequired(state, calls, invalidArguments).pipe(
    map((ids): Step => {
      if (ids.length === 0) return { kind: 'act', calls, invalidArguments };
      const metadata = { pendingToolCalls: calls, approvalRequired: ids } as unknown as JsonObject;
      return { kind: 'final', reply, reason: 'approval_required', metadata };
    }),
  );
}

/**
 * The calls a human's decisions refuse, by id, with the reason: the denied ones, and those
 * that need approval but were neither approved nor denied (`no decision`). Cold; emits once.
 */
export function decisionDenials(
  state: ReActCallState,
  calls: readonly ToolUseBlock[],
  invalidArguments: JsonObject,
  decisions: Decisions,
): Observable<ReadonlyMap<string, string>> {
  const approved = new Set(decisions.approve);
  const undecided = calls.filter(
    (call) => !approved.has(call.id) && !Object.hasOwn(decisions.deny, call.id),
  );
  return approvalRequired(state, undecided, invalidArguments).pipe(
    map((ids) => {
      const denied = new Map<string, string>();
      for (const call of calls) {
        const reason = Object.hasOwn(decisions.deny, call.id) ? decisions.deny[call.id] : undefined;
        if (reason !== undefined) denied.set(call.id, reason);
      }
      for (const id of ids) denied.set(id, NO_DECISION);
      return denied;
    }),
  );
}

/** The enabled tool `call` names when it has an approval rule (`needsApproval` not false). */
// biome-ignore lint/suspicious/noExplicitAny: tools of every argument type.
function approvalRule(state: ReActCallState, call: ToolUseBlock): Tool<any> | undefined {
  const { toolkit } = state;
  const tool = toolkit.isEnabled(call.name) ? toolkit.get(call.name) : undefined;
  const rule = tool?.needsApproval;
  return rule === undefined || rule === false ? undefined : tool;
}

function needsApproval(
  state: ReActCallState,
  call: ToolUseBlock,
  invalidArguments: JsonObject,
): boolean | Promise<boolean> {
  const tool = approvalRule(state, call);
  const rule = tool?.needsApproval;
  if (tool === undefined || rule === undefined || rule === false) return false;
  if (rule === true) return true;
  if (typeof invalidArguments[call.id] === 'string') return false;
  const args = validateAgainst(tool.parameters, call.input);
  if (!args.ok) return false;
  try {
    const answer = rule(args.value, { toolCallId: call.id, agent: state.context.agent });
    return typeof answer === 'boolean' ? answer : Promise.resolve(answer).then(Boolean, () => true);
  } catch {
    return true;
  }
}

/**
 * Runs a tool batch (`actingStep`), after a human's `decisions` when the call resumes an
 * `approval_required` stop: the calls they refuse get `[denied]` results without running.
 * Counts the batch in the call's stats. Cold; emits `decide(outcome)` once (a throw in it
 * errors).
 */
export function decidedActing<R>(
  state: ReActCallState,
  calls: readonly ToolUseBlock[],
  setup: ActingSetup,
  decisions: Decisions | undefined,
  decide: (outcome: ActingOutcome) => R,
): Observable<R> {
  const count = (): void => {
    state.stats.toolCalls += calls.length;
  };
  if (decisions === undefined) return actingStep(state, calls, setup, decide, count);
  return defer(() => {
    count();
    return decisionDenials(state, calls, setup.invalidArguments, decisions).pipe(
      concatMap((denied) => actingStep(state, calls, { ...setup, denied }, decide)),
    );
  });
}
