import { defaultIfEmpty, defer, filter, map, type Observable, of, switchMap, tap } from 'rxjs';
import { z } from 'zod';
import type { Budget } from '../budget/budget.js';
import { ApprovalPendingError } from '../errors.js';
import { type Msg, userMsg } from '../message/msg.js';
import { nestPendingCalls } from '../message/pendingToolCall.js';
import { textOf } from '../message/readers.js';
import { toolDecisions } from '../message/toolDecisions.js';
import { sanitizeName } from '../model/formatMessages.js';
import { checkOptions } from '../options/checkOptions.js';
import { type Tool, type ToolExecutionContext, tool } from '../tool/tool.js';
import type { Agent } from './agent.js';
import type { AgentEvent } from './agentEvent.js';
import type { CallOptions } from './callOptions.js';
import { replyMetadata } from './replyMetadata.js';
import { subAgentBudget, usageReportOf } from './subAgentUsage.js';

/** Options of `agent.asTool()`. */
export interface AgentToolOptions {
  /** The tool's name (default: the agent's name, in the function-name charset). */
  readonly name?: string;
  /** What the model reads about the tool (default: the agent's description). */
  readonly description?: string;
}

/** What `agentTool` delegates to: an agent whose calls can be streamed (every `AgentBase`). */
export interface StreamingAgent extends Agent {
  stream(input?: Msg | readonly Msg[], options?: CallOptions): Observable<AgentEvent>;
  /** The agent's own budget, if it has one: a tool call's budget is tightened by it. */
  readonly budget?: Budget | undefined;
}

/** The arguments of an agent tool: the request the delegate agent gets as a user message. */
export interface AgentToolArgs {
  readonly request: string;
}

/** What `asTool()` returns: a Tool taking `{ request }`. */
export type AgentTool = Tool<AgentToolArgs>;

const parameters = z.object({
  request: z
    .string()
    .describe('The complete request for the agent, with every detail it needs to answer.'),
});

/**
 * A Tool that delegates to `agent` (see `AgentBase.asTool`): each run calls the agent with
 * the request as a user message and returns its reply's text. The agent's streamed text
 * arrives as the run's chunks (the caller's `actingChunk` events), and, while the caller is
 * streamed, every event of the agent goes to the caller's `stream()` with `path` (see
 * `AgentEvent`). An interrupted reply or a failed call (including `AgentBusyError` when the
 * agent is already running) is an error result. A reply that waits for approval
 * (`approval_required`) ends the run with an `ApprovalPendingError` listing the agent's
 * pending calls with their `metadata.path`: a ReActAgent caller then stops for approval
 * too, and its `call(toolDecisions(...))` runs this tool again with `context.resume`, which
 * calls the agent with the decisions about its own calls (`call()` with no input when there
 * are none: every pending call approved) and returns the reply it then gives.
 * Aborting the run cancels the agent's call at once, leaving it callable again.
 * The agent keeps its own memory and never sees the caller's conversation, only the request.
 * Not deduplicated: the same request may get a new answer. The agent's call gets the
 * caller's remaining budget (`context.budget`, tightened by the agent's own `budget`) and
 * who is asking (`context.callContext`), and its reply's usage goes to the caller through
 * `context.reportUsage` (so the caller's `usage` and `usageByAgent` include it).
 */
export function agentTool(
  agent: StreamingAgent,
  options: AgentToolOptions = {},
  recovered?: (requestId: string) => Observable<Msg>,
): AgentTool {
  checkOptions(options, ['name', 'description'], `${agent.name}.asTool()`);
  const name = options.name ?? sanitizeName(agent.name);
  const description =
    options.description ??
    (agent.description ||
      `Asks the agent "${agent.name}" to handle a request and returns its answer.`);
  return tool({
    name,
    description,
    parameters,
    dedupe: false,
    ...(recovered && { idempotent: true }),
    execute: ({ request }, context) => {
      if (context.resume !== undefined) {
        const { decisions } = context.resume;
        return delegate(agent, decisions ? toolDecisions(decisions) : undefined, context);
      }
      return recovered
        ? delegateDurably(agent, request, `${context.toolCallId}:request`, recovered, context)
        : delegate(agent, userMsg(request), context);
    },
  });
}

/**
 * For a durable agent: the reply its checkpoint holds for this request (a caller that
 * crashed runs the tool call again), else a new call whose input has the request's id.
 */
function delegateDurably(
  agent: StreamingAgent,
  request: string,
  requestId: string,
  recovered: (requestId: string) => Observable<Msg>,
  context: ToolExecutionContext,
): Observable<string> {
  return recovered(requestId).pipe(
    map((reply) => replyText(agent, reply, context)),
    defaultIfEmpty(undefined),
    switchMap((text) =>
      text === undefined ? delegate(agent, userMsg(request, { id: requestId }), context) : of(text),
    ),
  );
}

/**
 * The agent's text deltas, then the text of its reply; each of its events forwarded to the
 * caller's stream with its path. Errors when the reply is interrupted or waits for approval.
 * The call gets the caller's remaining budget (tightened by the agent's own) and its
 * `callContext`; its reply's usage is reported to the caller (`context.reportUsage`).
 */
function delegate(
  agent: StreamingAgent,
  input: Msg | undefined,
  context: ToolExecutionContext,
): Observable<string> {
  const forward = context.forwardEvent;
  const outer = context.agent?.name;
  const caller = context.agent && { agent: context.agent, toolCallId: context.toolCallId };
  const budget = subAgentBudget(context.budget, agent.budget);
  // Who is asking goes on to the agent: its hooks, tools and approval rules see it too.
  const { callContext } = context;
  const options: CallOptions = {
    ...(caller && { caller }),
    ...(budget !== undefined && { budget }),
    ...(callContext !== undefined && { callContext }),
  };
  return defer(() => agent.stream(input, options)).pipe(
    tap((event) => {
      if (forward !== undefined && event.type !== 'reply')
        forward(nestedEvent(event, agent, outer));
    }),
    filter((event) => event.type === 'reply' || (hasText(event) && event.path === undefined)),
    map((event) =>
      event.type === 'reply'
        ? replyText(agent, event.msg, context)
        : (event as TextChunk).delta.text,
    ),
  );
}

/** `event` of `agent` as its caller's stream carries it: `path` from the caller down. */
function nestedEvent(
  event: Exclude<AgentEvent, { type: 'reply' }>,
  agent: StreamingAgent,
  outer: string | undefined,
): AgentEvent {
  const path = event.path ?? [agent.name];
  return Object.freeze({ ...event, path: outer === undefined ? path : [outer, ...path] });
}

function replyText(agent: StreamingAgent, reply: Msg, context: ToolExecutionContext): string {
  // What the agent spent counts for the caller, also when it stopped for approval.
  context.reportUsage?.(usageReportOf(agent.name, reply));
  const reason = reply.metadata['generateReason'];
  if (reason === 'interrupted') {
    throw new Error(`agent "${agent.name}" was interrupted: ${textOf(reply)}`);
  }
  if (reason === 'approval_required') {
    const { pendingToolCalls = [], approvalRequired = [] } = replyMetadata(reply);
    throw new ApprovalPendingError(
      agent.name,
      nestPendingCalls(pendingToolCalls, agent.name, context.agent?.name),
      approvalRequired,
    );
  }
  return textOf(reply);
}

type TextChunk = { readonly type: 'reasoningChunk'; readonly delta: { readonly text: string } };

function hasText(event: AgentEvent): event is AgentEvent & TextChunk {
  return (
    event.type === 'reasoningChunk' && event.delta.text !== undefined && event.delta.text !== ''
  );
}
