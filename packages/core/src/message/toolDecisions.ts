import { InvalidArgumentError } from '../errors.js';
import { isJsonObject, type JsonObject, jsonProblem } from '../json.js';
import { checkOptions, optionNames } from '../options/checkOptions.js';
import { createMsg, type Msg } from './msg.js';

/**
 * A human's decisions about tool calls that wait for approval: the ids to run, the ids not
 * to run with the reason the model is told, the ids to run with other arguments, the tools
 * to approve from now on, and who decided.
 */
export interface ToolDecisions {
  readonly approve?: readonly string[];
  readonly deny?: Readonly<Record<string, string>>;
  /**
   * Calls to run with these arguments instead of the model's (by id): validated like the
   * model's (invalid ones give the call an error result naming the field); the stored
   * `tool_use` keeps the model's arguments. An edited call is approved.
   */
  readonly edit?: Readonly<Record<string, JsonObject>>;
  /**
   * Tool names approved for the rest of this agent's conversation (kept in its state): later
   * calls of them that would wait for approval run at once, and pending calls of them that
   * got no other decision here run. A `deny` approval rule still refuses them.
   */
  readonly remember?: readonly string[];
  /** Who decided (a user id or name), recorded in each decided result's `metadata.decision`. */
  readonly by?: string;
}

/** The decisions of a `toolDecisions()` Msg as `readToolDecisions` reads them back. */
export interface ReadToolDecisions {
  readonly approve: readonly string[];
  readonly deny: Readonly<Record<string, string>>;
  readonly edit: Readonly<Record<string, JsonObject>>;
  readonly remember: readonly string[];
  readonly by?: string;
  /** When they were made: the decisions Msg's timestamp (ISO time). */
  readonly at: string;
}

/**
 * What a decided tool result Msg carries as `metadata.decision`: `'approved'` (a human, a
 * remembered approval, or `call()` with no input), `'denied'` (a human, or no decision:
 * `reason` says which), `'edited'` (run with a human's arguments) or `'rule'` (an
 * `approvalRules` entry allowed or denied it; `rule` names it, a deny rule's reason is in
 * `reason`). `at` is when the decision was made (ISO time), `by` who made it when known.
 * A call that needed no approval has no `metadata.decision`.
 */
export interface ToolDecisionMetadata {
  readonly decision: 'approved' | 'denied' | 'edited' | 'rule';
  readonly by?: string;
  readonly at: string;
  readonly reason?: string;
  /** The approval rule that decided: its index in `approvalRules` and its `tool` pattern. */
  readonly rule?: { readonly index: number; readonly tool: string };
  /** The approval came from a tool approved earlier with `remember`. */
  readonly remembered?: true;
}

const KEYS = optionNames<ToolDecisions>({
  approve: true,
  deny: true,
  edit: true,
  remember: true,
  by: true,
});

/**
 * The Msg that resumes a call which ended with `generateReason: 'approval_required'`:
 * `agent.call(toolDecisions({ approve: ['call_1'], deny: { call_2: 'too expensive' } }))`.
 * Approved calls and calls that need no approval run; denied ones get an error result
 * `[denied] <reason>`; edited ones run with the given arguments; a call that needs approval
 * and has no decision is denied with reason `no decision`. (`agent.call()` with no input
 * approves every pending call.)
 *
 * The Msg is a control message, not conversation: a user-role Msg named `user`, without
 * content, whose `metadata.toolDecisions` holds `{ approve, deny }` and, when given, `edit`,
 * `remember` and `by`.
 * The agent reads it and does not store it. Throws `InvalidArgumentError` when an id is not a
 * string, a reason is not a string, edited arguments are not a JSON object, a remembered
 * tool name or `by` is not a non-empty string, or an id is both denied and approved or edited.
 */
export function toolDecisions(decisions: ToolDecisions = {}): Msg {
  checkOptions(decisions, KEYS, 'toolDecisions()');
  const approve = [...(decisions.approve ?? [])];
  const deny = { ...(decisions.deny ?? {}) };
  const edit = { ...(decisions.edit ?? {}) };
  const remember = [...(decisions.remember ?? [])];
  const { by } = decisions;
  if (!approve.every((id) => typeof id === 'string'))
    throw new InvalidArgumentError('toolDecisions(): approve must be an array of tool call ids.');
  for (const [id, reason] of Object.entries(deny)) {
    if (typeof reason !== 'string')
      throw new InvalidArgumentError(
        `toolDecisions(): the reason for denying ${id} must be a string.`,
      );
  }
  for (const [id, args] of Object.entries(edit)) {
    const problem = isJsonObject(args) ? jsonProblem(args, 'arguments') : 'it is not an object';
    if (problem !== undefined)
      throw new InvalidArgumentError(
        `toolDecisions(): the edited arguments of ${id} must be a JSON object of the tool's parameters (${problem}).`,
      );
  }
  if (!remember.every((name) => typeof name === 'string' && name !== ''))
    throw new InvalidArgumentError('toolDecisions(): remember must be an array of tool names.');
  if (by !== undefined && (typeof by !== 'string' || by === ''))
    throw new InvalidArgumentError(
      'toolDecisions(): by must be a non-empty string naming who decided.',
    );
  const both = [...approve, ...Object.keys(edit)].filter((id) => Object.hasOwn(deny, id));
  if (both.length > 0)
    throw new InvalidArgumentError(
      `toolDecisions(): tool call id(s) ${[...new Set(both)].join(', ')} are both approved and denied; decide once.`,
    );
  // Only what was decided: a Msg of approvals and denials alone stays `{ approve, deny }`.
  const value: JsonObject = { approve, deny };
  if (Object.keys(edit).length > 0) value['edit'] = edit;
  if (remember.length > 0) value['remember'] = remember;
  if (by !== undefined) value['by'] = by;
  return createMsg({ name: 'user', role: 'user', content: [], metadata: { toolDecisions: value } });
}

/** The decisions a `toolDecisions()` Msg holds, or `undefined` for any other Msg. */
export function readToolDecisions(msg: Msg): ReadToolDecisions | undefined {
  const value = msg.metadata['toolDecisions'];
  if (msg.role !== 'user' || !isJsonObject(value)) return undefined;
  const strings = (list: unknown): string[] =>
    Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
  const deny: Record<string, string> = {};
  if (isJsonObject(value['deny'])) {
    for (const [id, reason] of Object.entries(value['deny']))
      if (typeof reason === 'string') deny[id] = reason;
  }
  const edit: Record<string, JsonObject> = {};
  if (isJsonObject(value['edit'])) {
    for (const [id, args] of Object.entries(value['edit']))
      if (isJsonObject(args) && !Object.hasOwn(deny, id)) edit[id] = args;
  }
  const by = value['by'];
  return {
    approve: strings(value['approve']),
    deny,
    edit,
    remember: strings(value['remember']).filter((name) => name !== ''),
    ...(typeof by === 'string' && by !== '' && { by }),
    at: msg.timestamp,
  };
}

/**
 * The part of `decisions` that concerns the tool calls `ids` (the calls a sub-agent made,
 * when an agent resumes it inside its own tool call): `approve` keeps those ids, every field
 * keyed by call id (`deny`, and any other such record) keeps those keys, and every other
 * field (who decided, say) is passed on as it is.
 */
export function restrictDecisions<D extends ToolDecisions>(
  decisions: D,
  ids: ReadonlySet<string>,
): D {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(decisions)) {
    if (key === 'approve' && Array.isArray(value)) out[key] = value.filter((id) => ids.has(id));
    else if (isJsonObject(value))
      out[key] = Object.fromEntries(Object.entries(value).filter(([id]) => ids.has(id)));
    else out[key] = value;
  }
  return out as D;
}
