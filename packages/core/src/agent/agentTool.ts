import { defaultIfEmpty, defer, filter, map, type Observable, of, switchMap } from 'rxjs';
import { z } from 'zod';
import type { Budget } from '../budget/budget.js';
import { type Msg, userMsg } from '../message/msg.js';
import { textOf } from '../message/readers.js';
import { sanitizeName } from '../model/formatMessages.js';
import { checkOptions } from '../options/checkOptions.js';
import { type Tool, type ToolExecutionContext, tool } from '../tool/tool.js';
import type { Agent } from './agent.js';
import type { AgentEvent } from './agentEvent.js';
import type { CallOptions } from './callOptions.js';
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
 * arrives as the run's chunks (the caller's `actingChunk` events). An interrupted reply or a
 * failed call (including `AgentBusyError` when the agent is already running) is an error
 * result. Aborting the run cancels the agent's call at once, leaving it callable again.
 * The agent keeps its own memory and never sees the caller's conversation, only the request.
 * Not deduplicated: the same request may get a new answer. The agent's call gets the
 * caller's remaining budget (`context.budget`, tightened by the agent's own `budget`), and
 * its reply's usage goes to the caller through `context.reportUsage` (so the caller's
 * `usage` and `usageByAgent` include it).
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
    execute: ({ request }, context) =>
      recovered
        ? delegateDurably(agent, request, `${context.toolCallId}:request`, recovered, context)
        : delegate(agent, request, context),
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
      text === undefined ? delegate(agent, request, context, requestId) : of(text),
    ),
  );
}

/**
 * The agent's text deltas, then the text of its reply; errors when the reply is interrupted.
 * The call gets the caller's remaining budget (tightened by the agent's own), and its
 * reply's usage is reported to the caller (`context.reportUsage`).
 */
function delegate(
  agent: StreamingAgent,
  request: string,
  context: ToolExecutionContext,
  id?: string,
): Observable<string> {
  const input = id === undefined ? userMsg(request) : userMsg(request, { id });
  const budget = subAgentBudget(context.budget, agent.budget);
  // Who is asking goes on to the agent: its hooks, tools and approval rules see it too.
  const { callContext } = context;
  const options = {
    ...(budget !== undefined && { budget }),
    ...(callContext !== undefined && { callContext }),
  };
  return defer(() => agent.stream(input, options)).pipe(
    filter((event) => event.type === 'reply' || hasText(event)),
    map((event) =>
      event.type === 'reply'
        ? replyText(agent, event.msg, context)
        : (event as TextChunk).delta.text,
    ),
  );
}

function replyText(agent: StreamingAgent, reply: Msg, context: ToolExecutionContext): string {
  context.reportUsage?.(usageReportOf(agent.name, reply));
  if (reply.metadata['generateReason'] === 'interrupted') {
    throw new Error(`agent "${agent.name}" was interrupted: ${textOf(reply)}`);
  }
  return textOf(reply);
}

type TextChunk = { readonly type: 'reasoningChunk'; readonly delta: { readonly text: string } };

function hasText(event: AgentEvent): event is AgentEvent & TextChunk {
  return (
    event.type === 'reasoningChunk' && event.delta.text !== undefined && event.delta.text !== ''
  );
}
