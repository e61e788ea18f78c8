import {
  InvalidArgumentError,
  type JsonObject,
  type Msg,
  readToolDecisions,
  type Tool,
  type ToolApprovalContext,
  type ToolDecisionMetadata,
  type ToolUseBlock,
  validateAgainst,
} from '@rxagent/core';
import {
  concatMap,
  defer,
  from,
  map,
  type Observable,
  type Observer,
  of,
  type Subscription,
} from 'rxjs';
import {
  type ActingOutcome,
  type ActingSetup,
  actingStep,
  startActingStep,
} from '../acting/actingStep.js';
import { type ApprovalRule, RULE_DENIAL, ruleLabel, ruleNames } from './approvalRules.js';
import { type Decisions, NO_DECISION, type Resolution, type Resolutions } from './decisions.js';
import type { ReActCallState } from './reactCallState.js';
import type { Step } from './step.js';
import type { Transcript } from './transcript.js';

/** The decisions of a resume that decided nothing (results supplied for some calls only). */
export function noDecisions(all = false): Decisions {
  const at = new Date().toISOString();
  return { approve: [], deny: {}, edit: {}, remember: [], at, ...(all && { all }) };
}

/**
 * Splits a call's input into the decisions of its `toolDecisions()` Msg (if any) and the
 * other messages. Throws `InvalidArgumentError`, before memory changes, for more than one
 * decisions Msg, decisions sent with other (non-tool) messages, decisions when no tool call
 * waits, decisions naming ids that do not wait (approved, denied or edited), and remembered
 * names that are not tools of the agent (`isTool`).
 */
export function admitDecisions(
  transcript: Transcript,
  msgs: readonly Msg[],
  isTool: (name: string) => boolean = () => true,
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
  const named = [
    ...decisions.approve,
    ...Object.keys(decisions.deny),
    ...Object.keys(decisions.edit),
  ];
  const unknown = [...new Set(named)].filter((id) => !open.has(id));
  if (unknown.length > 0)
    throw new InvalidArgumentError(
      `${where}: toolDecisions() names unknown tool call id(s) ${unknown.join(', ')}; pending calls: ${[...open].join(', ')}.`,
    );
  // A sub-agent's tool may be remembered with the decision about its waiting call.
  const nestedTools = new Set(
    Object.values(transcript.suspendedCalls).flatMap((record) =>
      record.pendingToolCalls.map((call) => call.name),
    ),
  );
  const strangers = decisions.remember.filter((name) => !isTool(name) && !nestedTools.has(name));
  if (strangers.length > 0)
    throw new InvalidArgumentError(
      `${where}: toolDecisions() remembers ${strangers.join(', ')}, which is not a tool of this agent or of a sub-agent's waiting call; remember takes tool names.`,
    );
  return { decisions, rest };
}

/**
 * How the approval rules, a remembered approval and the tool's `needsApproval` decide about
 * one call: `free` (it needs no approval: nothing is recorded), `ask` (it waits for a human),
 * `allow` (an allow rule or a remembered approval lets it run) or `deny` (a deny rule).
 */
type Gate =
  | { readonly kind: 'free' }
  | { readonly kind: 'ask' }
  | { readonly kind: 'allow'; readonly decision: ToolDecisionMetadata }
  | { readonly kind: 'deny'; readonly reason: string; readonly decision: ToolDecisionMetadata };

const FREE: Gate = { kind: 'free' };
const ASK: Gate = { kind: 'ask' };

/** Whether anything about `calls` could need a decision: approval rules, or a tool's `needsApproval`. */
function gated(state: ReActCallState, calls: readonly ToolUseBlock[]): boolean {
  return state.approvalRules.length > 0 || calls.some((call) => approvalTool(state, call));
}

/** The gate of each call, in order: an array at once when no predicate answered asynchronously. */
function gatesOf(
  state: ReActCallState,
  calls: readonly ToolUseBlock[],
  invalidArguments: JsonObject,
): Gate[] | Promise<Gate[]> {
  const gates = calls.map((call) => gateOf(state, call, invalidArguments));
  if (gates.every((gate) => !isPromise(gate))) return gates as Gate[];
  return Promise.all(gates);
}

/**
 * The ids of `calls` that wait for a human, in call order. Cold; emits once. A call whose
 * tool is unknown or disabled needs none (it will not run anyway); see `ReActAgentOptions.
 * approvalRules` for the order in which rules, remembered approvals and `needsApproval`
 * decide. Without any predicate to ask, it answers synchronously.
 */
export function approvalRequired(
  state: ReActCallState,
  calls: readonly ToolUseBlock[],
  invalidArguments: JsonObject,
): Observable<string[]> {
  return defer(() => {
    const pick = (gates: Gate[]): string[] =>
      calls.filter((_, index) => gates[index]!.kind === 'ask').map((call) => call.id);
    const gates = gatesOf(state, calls, invalidArguments);
    return isPromise(gates) ? from(gates).pipe(map(pick)) : of(pick(gates));
  });
}

/**
 * After a reply with tool calls was stored: act on them, or end the call with
 * `approval_required` (the calls stay open, like a `tool_calls_stopped` stop) when any of
 * them waits for a human. Calls an approval rule or a remembered approval decided carry that
 * decision into the act step. The step itself when nothing needs asking asynchronously, else
 * an Observable emitting it once.
 */
export function approvalStep(
  state: ReActCallState,
  reply: Msg,
  calls: readonly ToolUseBlock[],
  invalidArguments: JsonObject,
): Step | Observable<Step> {
  // No rule and no tool of the batch that asks for approval: the step is decided now.
  if (!gated(state, calls)) return { kind: 'act', calls, invalidArguments };
  const decide = (gates: readonly Gate[]): Step => {
    const ask = calls.filter((_, index) => gates[index]!.kind === 'ask').map((call) => call.id);
    if (ask.length > 0) {
      const metadata = { pendingToolCalls: calls, approvalRequired: ask } as unknown as JsonObject;
      return { kind: 'final', reply, reason: 'approval_required', metadata };
    }
    const resolved: Record<string, Resolution> = {};
    calls.forEach((call, index) => {
      const resolution = gateResolution(gates[index]!);
      if (resolution) resolved[call.id] = resolution;
    });
    const some = Object.keys(resolved).length > 0;
    return { kind: 'act', calls, invalidArguments, ...(some && { resolved }) };
  };
  const gates = gatesOf(state, calls, invalidArguments);
  return isPromise(gates) ? from(gates).pipe(map(decide)) : decide(gates);
}

/**
 * What a human's `decisions` (and the rules) decide about each call of a resumed batch:
 * denied calls are refused with their reason; edited ones run with the new arguments;
 * approved ones run; a deny rule refuses a call whatever the human said (checked on the
 * edited arguments for an edited call); an allow rule or remembered approval lets an
 * undecided call run; an undecided call that waits for approval is denied (`no decision`).
 * With `decisions.all` (no input) every call that would wait is approved. Cold; emits once.
 */
export function resolveDecisions(
  state: ReActCallState,
  calls: readonly ToolUseBlock[],
  invalidArguments: JsonObject,
  decisions: Decisions,
): Observable<Resolutions> {
  return defer(() => {
    const { by, at } = decisions;
    const human = (decision: ToolDecisionMetadata['decision'], reason?: string) =>
      ({
        decision,
        ...(by !== undefined && { by }),
        at,
        ...(reason !== undefined && { reason }),
      }) satisfies ToolDecisionMetadata;
    const approved = new Set(decisions.approve);
    const resolve = (
      call: ToolUseBlock,
    ): Resolution | undefined | Promise<Resolution | undefined> => {
      const reason = Object.hasOwn(decisions.deny, call.id) ? decisions.deny[call.id] : undefined;
      if (reason !== undefined) return { deny: reason, decision: human('denied', reason) };
      const input = Object.hasOwn(decisions.edit, call.id) ? decisions.edit[call.id] : undefined;
      const gate = gateOf(state, input ? { ...call, input } : call, input ? {} : invalidArguments);
      const decide = (gate: Gate): Resolution | undefined => {
        if (gate.kind === 'deny') return gateResolution(gate);
        if (input !== undefined) return { input, decision: human('edited') };
        if (approved.has(call.id)) return { decision: human('approved') };
        if (gate.kind === 'allow') return gateResolution(gate);
        if (gate.kind === 'free') return undefined;
        if (decisions.all) return { decision: human('approved') };
        return { deny: NO_DECISION, decision: human('denied', NO_DECISION) };
      };
      return isPromise(gate) ? gate.then(decide) : decide(gate);
    };
    const answers = calls.map(resolve);
    const collect = (list: readonly (Resolution | undefined)[]): Resolutions => {
      const resolved: Record<string, Resolution> = {};
      calls.forEach((call, index) => {
        const resolution = list[index];
        if (resolution) resolved[call.id] = resolution;
      });
      return resolved;
    };
    if (answers.some(isPromise)) return from(Promise.all(answers)).pipe(map(collect));
    return of(collect(answers as (Resolution | undefined)[]));
  });
}

/** What a gate decided, as a call's resolution (none for `free` and `ask`). */
function gateResolution(gate: Gate): Resolution | undefined {
  if (gate.kind === 'deny') return { deny: gate.reason, decision: gate.decision };
  if (gate.kind === 'allow') return { decision: gate.decision };
  return undefined;
}

/**
 * The gate of one call: the first approval rule naming its tool whose `when` holds decides
 * (`deny` refuses; `allow` runs; `ask` waits unless the tool was remembered; a `when` that
 * throws or rejects waits); with no rule, the tool's `needsApproval` (a remembered tool runs
 * instead of waiting). Rules with `when` are skipped when the arguments are invalid.
 */
function gateOf(
  state: ReActCallState,
  call: ToolUseBlock,
  invalidArguments: JsonObject,
): Gate | Promise<Gate> {
  const { toolkit } = state;
  const tool = toolkit.isEnabled(call.name) ? toolkit.get(call.name) : undefined;
  if (tool === undefined) return FREE;
  let args: { readonly ok: boolean; readonly value?: unknown } | undefined;
  const validated = () => {
    args ??= validArguments(tool, call, invalidArguments);
    return args;
  };
  const { context } = state;
  const approval: ToolApprovalContext = {
    toolCallId: call.id,
    agent: context.agent,
    ...(context.options.callContext !== undefined && { callContext: context.options.callContext }),
  };
  const rules = state.approvalRules;
  const fromRules = (start: number): Gate | Promise<Gate> => {
    for (let index = start; index < rules.length; index++) {
      const rule = rules[index]!;
      if (!ruleNames(rule, call.name)) continue;
      if (rule.when === undefined) return ruleGate(state, rule, index, call);
      const valid = validated();
      if (!valid.ok) continue;
      let answer: boolean | Promise<boolean>;
      try {
        answer = rule.when(valid.value, approval);
      } catch {
        return ASK;
      }
      if (isPromise(answer)) {
        const next = index + 1;
        return Promise.resolve(answer).then(
          (yes) => (yes ? ruleGate(state, rule, index, call) : fromRules(next)),
          () => ASK,
        );
      }
      if (answer) return ruleGate(state, rule, index, call);
    }
    const needs = needsApproval(tool, validated, approval);
    return isPromise(needs)
      ? needs.then((yes) => (yes ? waitOrRemembered(state, call) : FREE))
      : needs
        ? waitOrRemembered(state, call)
        : FREE;
  };
  return fromRules(0);
}

function ruleGate(
  state: ReActCallState,
  rule: ApprovalRule,
  index: number,
  call: ToolUseBlock,
): Gate {
  const at = new Date().toISOString();
  const label = ruleLabel(rule, index);
  switch (rule.decision) {
    case 'allow':
      return {
        kind: 'allow',
        decision: {
          decision: 'rule',
          at,
          rule: label,
          ...(rule.reason && { reason: rule.reason }),
        },
      };
    case 'deny': {
      const reason = rule.reason ?? RULE_DENIAL;
      return { kind: 'deny', reason, decision: { decision: 'rule', at, reason, rule: label } };
    }
    case 'ask':
      return waitOrRemembered(state, call);
  }
}

/** A call that would wait for approval: it runs when its tool was remembered, else waits. */
function waitOrRemembered(state: ReActCallState, call: ToolUseBlock): Gate {
  const remembered = state.approvals?.get(call.name);
  if (remembered === undefined) return ASK;
  const at = new Date().toISOString();
  const by = remembered.by;
  return {
    kind: 'allow',
    decision: { decision: 'approved', ...(by !== undefined && { by }), at, remembered: true },
  };
}

/** The enabled tool `call` names when it has an approval rule (`needsApproval` not false). */
// biome-ignore lint/suspicious/noExplicitAny: tools of every argument type.
function approvalTool(state: ReActCallState, call: ToolUseBlock): Tool<any> | undefined {
  const { toolkit } = state;
  const tool = toolkit.isEnabled(call.name) ? toolkit.get(call.name) : undefined;
  const rule = tool?.needsApproval;
  return rule === undefined || rule === false ? undefined : tool;
}

// biome-ignore lint/suspicious/noExplicitAny: tools of every argument type.
type AnyTool = Tool<any>;

/** The call's arguments validated against its tool's schema (not ok for raw, unparsed text). */
function validArguments(
  tool: AnyTool,
  call: ToolUseBlock,
  invalidArguments: JsonObject,
): { readonly ok: boolean; readonly value?: unknown } {
  if (typeof invalidArguments[call.id] === 'string') return { ok: false };
  try {
    const result = validateAgainst(tool.parameters, call.input);
    return result.ok ? { ok: true, value: result.value } : { ok: false };
  } catch {
    return { ok: false };
  }
}

/**
 * The tool's `needsApproval` for a call: `true` always waits; a predicate gets the validated
 * arguments (invalid ones need none: the call will not run) and a throw or rejection waits.
 */
function needsApproval(
  tool: AnyTool,
  validated: () => { readonly ok: boolean; readonly value?: unknown },
  context: ToolApprovalContext,
): boolean | Promise<boolean> {
  const rule = tool.needsApproval;
  if (rule === undefined || rule === false) return false;
  if (rule === true) return true;
  const args = validated();
  if (!args.ok) return false;
  try {
    const answer = rule(args.value, context);
    return isPromise(answer) ? Promise.resolve(answer).then(Boolean, () => true) : Boolean(answer);
  } catch {
    return true;
  }
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Runs a tool batch (`actingStep`) with what was decided about its calls: `resolved` (rules
 * and remembered approvals, decided after reasoning), or, when the call resumes an
 * `approval_required` stop, a human's `decisions` resolved first (`resolveDecisions`).
 * Counts the batch in the call's stats. Cold; emits `decide(outcome)` once (a throw in it
 * errors). Without `decisions`, the batch is returned as its start function (see
 * `startActingStep`), for the loop to run without an Observable.
 */
export function decidedActing<R>(
  state: ReActCallState,
  calls: readonly ToolUseBlock[],
  setup: ActingSetup,
  decisions: Decisions | undefined,
  decide: (outcome: ActingOutcome) => R,
): Observable<R> | ((sink: Observer<R> & { readonly closed: boolean }) => Subscription) {
  const count = (): void => {
    state.stats.toolCalls += calls.length;
  };
  // Nothing to resolve first: the batch is a step the loop starts itself (no Observable).
  if (decisions === undefined)
    return (sink) => startActingStep(state, calls, setup, sink, decide, count);
  return defer(() => {
    count();
    return resolveDecisions(state, calls, setup.invalidArguments, decisions).pipe(
      concatMap((resolved) => actingStep(state, calls, { ...setup, resolved }, decide)),
    );
  });
}

export type { ApprovalRule, Decisions, Resolution, Resolutions };
export { NO_DECISION };
