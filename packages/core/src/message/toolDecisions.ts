import { InvalidArgumentError } from '../errors.js';
import { isJsonObject } from '../json.js';
import { checkOptions } from '../options/checkOptions.js';
import { createMsg, type Msg } from './msg.js';

/**
 * A human's decisions about tool calls that wait for approval: the ids to run, and the ids
 * not to run with the reason the model is told.
 */
export interface ToolDecisions {
  readonly approve?: readonly string[];
  readonly deny?: Readonly<Record<string, string>>;
}

/**
 * The Msg that resumes a call which ended with `generateReason: 'approval_required'`:
 * `agent.call(toolDecisions({ approve: ['call_1'], deny: { call_2: 'too expensive' } }))`.
 * Approved calls and calls that need no approval run; denied ones get an error result
 * `[denied] <reason>`; a call that needs approval and has no decision is denied with
 * reason `no decision`. (`agent.call()` with no input approves every pending call.)
 *
 * The Msg is a control message, not conversation: a user-role Msg named `user`, without
 * content, whose `metadata.toolDecisions` holds `{ approve, deny }`. The agent reads it and
 * does not store it. Throws `InvalidArgumentError` when an id is not a string, a reason is
 * not a string, or an id is both approved and denied.
 */
export function toolDecisions(decisions: ToolDecisions = {}): Msg {
  checkOptions(decisions, ['approve', 'deny'], 'toolDecisions()');
  const approve = [...(decisions.approve ?? [])];
  const deny = { ...(decisions.deny ?? {}) };
  if (!approve.every((id) => typeof id === 'string'))
    throw new InvalidArgumentError('toolDecisions(): approve must be an array of tool call ids.');
  for (const [id, reason] of Object.entries(deny)) {
    if (typeof reason !== 'string')
      throw new InvalidArgumentError(
        `toolDecisions(): the reason for denying ${id} must be a string.`,
      );
  }
  const both = approve.filter((id) => Object.hasOwn(deny, id));
  if (both.length > 0)
    throw new InvalidArgumentError(
      `toolDecisions(): tool call id(s) ${both.join(', ')} are both approved and denied; decide once.`,
    );
  return createMsg({
    name: 'user',
    role: 'user',
    content: [],
    metadata: { toolDecisions: { approve, deny } },
  });
}

/** The decisions a `toolDecisions()` Msg holds, or `undefined` for any other Msg. */
export function readToolDecisions(msg: Msg): Required<ToolDecisions> | undefined {
  const value = msg.metadata['toolDecisions'];
  if (msg.role !== 'user' || !isJsonObject(value)) return undefined;
  const approve = Array.isArray(value['approve'])
    ? value['approve'].filter((id): id is string => typeof id === 'string')
    : [];
  const deny: Record<string, string> = {};
  if (isJsonObject(value['deny'])) {
    for (const [id, reason] of Object.entries(value['deny']))
      if (typeof reason === 'string') deny[id] = reason;
  }
  return { approve, deny };
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
