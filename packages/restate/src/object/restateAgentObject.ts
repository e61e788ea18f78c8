import * as restate from '@restatedev/restate-sdk';
import {
  type AgentBase,
  type AgentEvent,
  type CallOptions,
  checkOptions,
  InvalidArgumentError,
  type JsonObject,
  type Msg,
  type ToolDecisions,
  toolDecisions,
  userMsg,
} from '@rxagent/core';
import { filter, lastValueFrom, map, tap } from 'rxjs';
import type {
  CallRequest,
  DecideRequest,
  EventsRequest,
  InterruptRequest,
  ObserveRequest,
  PendingApproval,
  SteerRequest,
} from '../wire.js';
import { RestateJournal } from './restateJournal.js';
import { type EventsPage, type RunLog, RunRegistry } from './runLog.js';
import { ensurePromiseWithResolvers } from './withResolvers.js';

/** Options of `restateAgent()`. */
export interface RestateAgentObjectOptions {
  /** The virtual object's name (the service name callers and `RestateAgent` use). */
  readonly name: string;
  /**
   * Makes the agent of a conversation key. Called for every invocation: the agent's state
   * is loaded from the object's state before the call and stored back after it.
   */
  readonly create: (key: string) => AgentBase;
  /** Restate's options of the object (retry policy, timeouts, retention), passed as they are. */
  readonly options?: restate.ObjectOptions;
}

/** State keys of the object. */
const AGENT_STATE = 'agent';
const APPROVAL_STATE = 'approval';
/** How long one `events` read waits for a new event, in ms. */
const EVENTS_WAIT_MS = 2_000;

/**
 * An rxagent agent as a Restate virtual object, one per conversation key (Restate runs one
 * exclusive handler per key at a time, so calls on a key serialize and keys run
 * concurrently). Bind the result with `restate.endpoint().bind(...)` or `restate.serve(...)`.
 *
 * Handlers (what `RestateAgent` calls through the ingress):
 * - `call` ({ input, options?, runId? }) → the reply Msg: one agent call in which every model
 *   request and every tool run is a journaled step (`ctx.run`), so an invocation Restate
 *   retries after a crash replays them: no stored reply is requested again and no tool runs
 *   twice; a tool that started without a recorded result is in doubt (rerun only when
 *   `idempotent: true`, else the `[interrupted] ...` error result with `resultKind:
 *   'in_doubt'`). The agent's `stateDict()` lives in the object's state. An approval stop
 *   waits on an awakeable that `decide` resolves, then the call goes on.
 * - `decide` (shared; the `toolDecisions` options) resolves the pending approval; with none
 *   pending it fails with a terminal error.
 * - `interrupt` ({ message? }) and `steer` ({ input }) (shared) reach the call running in
 *   this process; a steer with no call running is stored through `observe`.
 * - `observe` ({ input }) adds messages to the conversation (`agent.observe`).
 * - `events` (shared; { runId, after }) the events of a run after `after`, waiting up to 2 s
 *   for one (see `RunLog`).
 */
export function restateAgent(options: RestateAgentObjectOptions) {
  checkOptions(options, ['name', 'create', 'options'], 'restateAgent');
  if (typeof options.name !== 'string' || options.name === '')
    throw new InvalidArgumentError('restateAgent: options.name must be a non-empty string.');
  if (typeof options.create !== 'function')
    throw new InvalidArgumentError(
      'restateAgent: options.create must be a function (key) => AgentBase.',
    );
  ensurePromiseWithResolvers();
  const { name, create } = options;
  const runs = new RunRegistry();
  const loadAgent = async (ctx: restate.ObjectContext): Promise<AgentBase> => {
    const agent = create(ctx.key);
    const state = await ctx.get<JsonObject>(AGENT_STATE);
    if (state !== null && state !== undefined) agent.loadStateDict(state);
    return agent;
  };
  return restate.object({
    name,
    handlers: {
      call: async (ctx: restate.ObjectContext, request: CallRequest): Promise<Msg> => {
        const runId = request.runId ?? ctx.request().id;
        const log = runs.start(ctx.key, runId);
        const journal = new RestateJournal(ctx);
        try {
          const agent = await loadAgent(ctx);
          log.agent = agent;
          return await runCall(ctx, agent, request, journal, log);
        } catch (error) {
          throw terminal(error, journal);
        } finally {
          runs.end(log);
        }
      },
      observe: async (ctx: restate.ObjectContext, request: ObserveRequest): Promise<void> => {
        const agent = await loadAgent(ctx);
        await lastValueFrom(agent.observe(request.input), { defaultValue: undefined });
        await saveState(ctx, agent, new RestateJournal(ctx));
      },
      decide: restate.handlers.object.shared(
        async (ctx: restate.ObjectSharedContext, request: DecideRequest): Promise<void> => {
          const pending = await ctx.get<PendingApproval>(APPROVAL_STATE);
          if (pending === null || pending === undefined)
            throw new restate.TerminalError(
              `${name}/${ctx.key}: no approval is pending; decide answers a call stopped for approval.`,
              { errorCode: 409 },
            );
          checkDecisionIds(request, pending, `${name}/${ctx.key}`);
          ctx.resolveAwakeable(pending.awakeableId, request);
        },
      ),
      interrupt: restate.handlers.object.shared(
        async (ctx: restate.ObjectSharedContext, request: InterruptRequest): Promise<boolean> => {
          const agent = runs.running(ctx.key)?.agent;
          agent?.interrupt(request?.message);
          return agent !== undefined;
        },
      ),
      steer: restate.handlers.object.shared(
        async (ctx: restate.ObjectSharedContext, request: SteerRequest): Promise<boolean> => {
          const agent = runs.running(ctx.key)?.agent;
          if (agent !== undefined) {
            agent.steer(request.input);
            return true;
          }
          ctx.genericSend({
            service: name,
            method: 'observe',
            key: ctx.key,
            // The generic client takes bytes: the handler's JSON.
            parameter: new TextEncoder().encode(
              JSON.stringify({ input: steeredInput(request.input) }),
            ),
          });
          return false;
        },
      ),
      events: restate.handlers.object.shared(
        async (ctx: restate.ObjectSharedContext, request: EventsRequest): Promise<EventsPage> => {
          const log = runs.find(request.runId);
          if (log !== undefined) return log.read(request.after ?? -1, EVENTS_WAIT_MS);
          // Not here: waiting in line, on another process, or suspended on an approval.
          const pending = await ctx.get<PendingApproval>(APPROVAL_STATE);
          const events = pending?.runId === request.runId ? [pendingEvent(pending)] : [];
          if (events.length === 0) await new Promise((resolve) => setTimeout(resolve, 250));
          return { events, last: request.after ?? -1, done: false };
        },
      ),
    },
    ...(options.options !== undefined && { options: options.options }),
  });
}

/** The call, and after each approval stop the wait for `decide` and the call that goes on. */
async function runCall(
  ctx: restate.ObjectContext,
  agent: AgentBase,
  request: CallRequest,
  journal: RestateJournal,
  log: RunLog,
): Promise<Msg> {
  const callOptions: CallOptions = { ...(request.options ?? {}), journal };
  let input: Msg | readonly Msg[] | undefined = request.input;
  for (;;) {
    const reply = await lastValueFrom(
      agent.stream(input, callOptions).pipe(
        tap((event) => log.push(event)),
        filter((event): event is Extract<AgentEvent, { type: 'reply' }> => event.type === 'reply'),
        map((event) => event.msg),
      ),
    );
    await saveState(ctx, agent, journal);
    if (reply.metadata['generateReason'] !== 'approval_required') return reply;
    const awakeable = ctx.awakeable<ToolDecisions>();
    const pending: PendingApproval = {
      runId: log.runId,
      awakeableId: awakeable.id,
      pendingToolCalls: (reply.metadata['pendingToolCalls'] ?? []) as JsonObject[],
      approvalRequired: (reply.metadata['approvalRequired'] ?? []) as string[],
    };
    ctx.set(APPROVAL_STATE, pending);
    log.push(pendingEvent(pending));
    const decisions = await awakeable.promise;
    ctx.clear(APPROVAL_STATE);
    input = toolDecisions(decisions);
  }
}

/**
 * Stores the agent's state in the object. The state holds fresh ids and timestamps, which a
 * retried invocation would make anew, and Restate compares a replayed `set` with the recorded
 * one (error 570 when they differ): so the state is taken in a journaled step and what that
 * step recorded is stored, and loaded into the agent when it is a replay's, so the agent
 * goes on exactly from what the object holds.
 */
async function saveState(
  ctx: restate.ObjectContext,
  agent: AgentBase,
  journal: RestateJournal,
): Promise<void> {
  let taken = false;
  const state = await journal.step('save state', async () => {
    taken = true;
    return agent.stateDict();
  });
  if (!taken) agent.loadStateDict(state);
  ctx.set(AGENT_STATE, state);
}

/** The event `RestateAgent.stream()` emits while a call waits for `decide`. */
function pendingEvent(pending: PendingApproval): JsonObject {
  return {
    type: 'approvalPending',
    pendingToolCalls: pending.pendingToolCalls,
    approvalRequired: pending.approvalRequired,
  };
}

/** A decision naming a call that is not pending is refused before it reaches the waiting call. */
function checkDecisionIds(request: DecideRequest, pending: PendingApproval, where: string): void {
  const known = new Set(pending.pendingToolCalls.map((call) => String(call['id'])));
  const named = [
    ...(request?.approve ?? []),
    ...Object.keys(request?.deny ?? {}),
    ...Object.keys(request?.edit ?? {}),
  ];
  const unknown = named.find((id) => !known.has(id));
  if (unknown !== undefined)
    throw new restate.TerminalError(
      `${where}: decide names ${unknown}, which is not a pending tool call (pending: ${[...known].join(', ')}).`,
      { errorCode: 400 },
    );
  try {
    toolDecisions(request ?? {});
  } catch (error) {
    throw new restate.TerminalError(`${where}: ${(error as Error).message}`, { errorCode: 400 });
  }
}

/** What `steer` stores when no call runs: a string becomes a user Msg's text. */
function steeredInput(input: SteerRequest['input']): Msg[] {
  if (typeof input === 'string') return [userMsg(input)];
  return Array.isArray(input) ? [...input] : [input as Msg];
}

/**
 * The error Restate gets: the journal's own failure as it is (Restate retries the
 * invocation), everything else terminal (the call failed; retrying would fail again).
 */
function terminal(error: unknown, journal: RestateJournal): unknown {
  if (journal.failure !== undefined) return journal.failure;
  if (error instanceof restate.TerminalError) return error;
  // The SDK's own errors (a retry asked for, a pause) go to Restate as they are.
  if (error instanceof restate.RestateError) return error;
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new restate.TerminalError(message, { errorCode: 500 });
}
