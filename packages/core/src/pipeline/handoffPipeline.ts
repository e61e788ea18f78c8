import { concat, concatMap, defer, ignoreElements, type Observable, of } from 'rxjs';
import type { AgentBase } from '../agent/agentBase.js';
import type { CallOptions } from '../agent/callOptions.js';
import { replyMetadata } from '../agent/replyMetadata.js';
import { subAgentBudget } from '../agent/subAgentUsage.js';
import { type Budget, budgetLeft, checkBudget } from '../budget/budget.js';
import { HandoffError, InvalidArgumentError } from '../errors.js';
import { checkCallContext, normalizeInput } from '../internal/normalizeInput.js';
import { frozenJson, type JsonObject } from '../json.js';
import { type Msg, withMetadata } from '../message/msg.js';
import { nestPendingCalls } from '../message/pendingToolCall.js';
import { readToolDecisions } from '../message/toolDecisions.js';
import type { Usage } from '../model/chatModel.js';
import { addUsage } from '../model/chatResponse.js';
import { checkOptions, optionNames } from '../options/checkOptions.js';
import { checkAgents } from './checkAgents.js';
import { handoffOf } from './handoffOf.js';

/** Options of `handoffPipeline`. */
export interface HandoffOptions {
  /** Handoffs followed at most (default 5); a reply asking for one more is a `HandoffError`. */
  readonly maxHandoffs?: number;
  /**
   * The name of the agent called first (default: `agents[0]`'s). To resume a pipeline that
   * stopped with `approval_required`, call it again with the `toolDecisions()` as input and
   * `startWith` the agent that stopped (the last name of the reply's `handoffPath`, the first
   * of each pending call's `metadata.path`).
   */
  readonly startWith?: string;
  /**
   * Who is asking (user, tenant, roles): passed to every agent's call as
   * `call(input, { callContext })`, so each agent's hooks, tools and approval rules see the
   * same caller. A JSON object.
   */
  readonly callContext?: JsonObject;
  /**
   * What the whole pipeline may spend: each agent's call gets what is left of it after the
   * hops before (tokens and, with `pricing`, dollars; tightened by the agent's own `budget`,
   * like an agent called as a tool). When it is spent, the agent called next ends its call
   * without a request (a ReActAgent replies with `generateReason: 'budget'`), and that reply
   * is the pipeline's last. A resumed pipeline (`startWith`) starts from the budget it is given.
   */
  readonly budget?: Budget;
}

const WHERE = 'handoffPipeline()';
const OPTION_KEYS = optionNames<HandoffOptions>({
  maxHandoffs: true,
  startWith: true,
  callContext: true,
  budget: true,
});

/**
 * Lets agents hand a conversation to each other. `agents[0]` is called with `input`; while
 * its reply is a handoff (`metadata.generateReason === 'handoff'` and `metadata.handoff.to`,
 * see `handoffOf`; a ReActAgent's `handoffs` option makes them), the agent of that name among
 * `agents` first observes the conversation so far that it has not heard yet (the input and
 * every reply, in order; a ReActAgent's handoff reply is a short note, never the transfer
 * tool call) and is then called with no new input, so it answers the user's request from what
 * it heard. Each agent keeps its own memory: what it heard is all it knows of the others.
 *
 * Cold. Emits the last reply, with `metadata.handoffPath` (the names of the agents called,
 * in order) and, when there was a handoff, `metadata.usage` summed over every hop with
 * `metadata.usageByAgent` by agent name, then completes. When an agent's call stops for
 * approval (`approval_required`), that reply is the last: each of its `pendingToolCalls` gets
 * `metadata.path` starting with that agent's name; resume with
 * `handoffPipeline(agents, toolDecisions(...), { startWith: name })`, which calls that agent
 * first with the decisions (not heard by the others) and follows its handoffs from there. Errors with `HandoffError` when a reply hands off to a name not
 * among `agents` or asks for more than `maxHandoffs` hops, with `InvalidArgumentError` for bad
 * arguments (including two agents of one name), and with any agent's call error.
 * Unsubscribing cancels the call in flight; interrupting the running agent (`agent.interrupt()`,
 * e.g. `agents.find((a) => a.isRunning)?.interrupt()`) ends its call with an interrupted reply,
 * which is not a handoff, so the pipeline emits it and completes.
 *
 * In a `MsgHub`, participants also hear every reply through the hub; an agent that stores
 * each Msg once (every ReActAgent does) is not told twice. Broadcast the input to the hub
 * first so every participant hears the conversation in order.
 *
 * @example
 * ```ts
 * const reply = await lastValueFrom(handoffPipeline([triage, billing, technical], userMsg(question)));
 * reply.metadata.handoffPath; // ['triage', 'billing']
 * ```
 */
export function handoffPipeline(
  agents: readonly AgentBase[],
  input?: Msg | readonly Msg[],
  options: HandoffOptions = {},
): Observable<Msg> {
  return defer(() => {
    checkOptions(options, OPTION_KEYS, WHERE);
    if (options.budget !== undefined) checkBudget(WHERE, options.budget);
    checkCallContext(WHERE, options.callContext);
    const list = checkAgents(agents, WHERE, { allowEmpty: false });
    // Who is asking stays as it was when the pipeline started, for every hop.
    const { callContext, budget } = options;
    const forHops = {
      ...(callContext !== undefined && { callContext: frozenJson(callContext) }),
      ...(budget !== undefined && { budget }),
    };
    const run = new HandoffRun(list, maxHandoffsOf(options), forHops);
    return run.start(run.first(options.startWith) ?? list[0]!, input);
  });
}

/** One run of a handoff pipeline: the conversation so far, who heard what, the path taken. */
class HandoffRun {
  readonly #byName = new Map<string, AgentBase>();
  readonly #conversation: Msg[] = [];
  readonly #heard = new Map<AgentBase, Set<string>>();
  readonly #path: string[] = [];
  readonly #usage = new PipelineUsage();

  constructor(
    agents: readonly AgentBase[],
    readonly maxHandoffs: number,
    readonly options: Pick<HandoffOptions, 'callContext' | 'budget'>,
  ) {
    for (const agent of agents) {
      const other = this.#byName.get(agent.name);
      if (other !== undefined && other !== agent) {
        throw new InvalidArgumentError(
          `${WHERE}: two agents are named "${agent.name}", so a handoff to that name is ambiguous; give each agent its own name.`,
        );
      }
      this.#byName.set(agent.name, agent);
    }
  }

  /** The agent named `name` (none when `name` is undefined); throws for an unknown name. */
  first(name: string | undefined): AgentBase | undefined {
    if (name === undefined) return undefined;
    const agent = this.#byName.get(name);
    if (agent !== undefined) return agent;
    const names = [...this.#byName.keys()].map((known) => `"${known}"`).join(', ');
    throw new InvalidArgumentError(
      `${WHERE}: options.startWith names "${name}", which is not one of the pipeline's agents (${names}).`,
    );
  }

  start(first: AgentBase, input: Msg | readonly Msg[] | undefined): Observable<Msg> {
    // A toolDecisions() Msg is control for the agent called first, not conversation.
    const msgs = normalizeInput(input, WHERE).filter((msg) => readToolDecisions(msg) === undefined);
    this.#conversation.push(...msgs);
    this.#hear(first, msgs);
    return this.#call(first, input);
  }

  #call(agent: AgentBase, input: Msg | readonly Msg[] | undefined): Observable<Msg> {
    this.#path.push(agent.name);
    return agent
      .call(input, this.#callOptions(agent))
      .pipe(concatMap((reply) => this.#follow(agent, reply)));
  }

  /** The options of `agent`'s call: who is asking, and what is left of the budget. */
  #callOptions(agent: AgentBase): CallOptions {
    const { callContext, budget } = this.options;
    const left =
      budget === undefined
        ? undefined
        : subAgentBudget(this.#usage.left(budget), (agent as { budget?: Budget }).budget);
    return {
      ...(callContext !== undefined && { callContext }),
      ...(left !== undefined && { budget: left }),
    };
  }

  /** The last reply, marked with the path, or the next hop when `reply` hands off. */
  #follow(agent: AgentBase, reply: Msg): Observable<Msg> {
    this.#conversation.push(reply);
    this.#hear(agent, [reply]);
    this.#usage.add(agent.name, reply);
    const handoff = handoffOf(reply);
    if (handoff === undefined) {
      const usage = this.#path.length > 1 ? this.#usage.metadata() : {};
      return of(lastReply(agent, reply, [...this.#path], usage));
    }
    const target = this.#byName.get(handoff.to);
    if (target === undefined) {
      const names = [...this.#byName.keys()].map((name) => `"${name}"`).join(', ');
      throw new HandoffError(
        `${WHERE}: "${agent.name}" handed off to "${handoff.to}", which is not one of the pipeline's agents (${names}); add that agent to the list or correct its handoff target.`,
        [...this.#path],
        handoff.to,
      );
    }
    if (this.#path.length > this.maxHandoffs) {
      throw new HandoffError(
        `${WHERE}: "${agent.name}" handed off to "${handoff.to}" after ${this.maxHandoffs} handoff(s) (path: ${this.#path.join(' → ')}), more than maxHandoffs allows; the agents may be passing the conversation back and forth. Raise maxHandoffs or tell the agents when to answer.`,
        [...this.#path],
        handoff.to,
      );
    }
    const unheard = this.#conversation.filter((msg) => !this.#heardBy(target).has(msg.id));
    this.#hear(target, unheard);
    return concat(
      target.observe(unheard).pipe(ignoreElements()),
      defer(() => this.#call(target, undefined)),
    );
  }

  #hear(agent: AgentBase, msgs: readonly Msg[]): void {
    const heard = this.#heardBy(agent);
    for (const msg of msgs) heard.add(msg.id);
  }

  #heardBy(agent: AgentBase): Set<string> {
    let heard = this.#heard.get(agent);
    if (heard === undefined) {
      heard = new Set();
      this.#heard.set(agent, heard);
    }
    return heard;
  }
}

/**
 * The pipeline's last reply, with `handoffPath`; in an approval stop, each pending call's
 * `metadata.path` starts with the name of the agent that stopped.
 */
/** The pipeline's last reply: its path, `extra` (the usage of every hop), nested pending calls. */
function lastReply(agent: AgentBase, reply: Msg, handoffPath: string[], extra: JsonObject): Msg {
  const { generateReason, pendingToolCalls } = replyMetadata(reply);
  if (generateReason !== 'approval_required' || pendingToolCalls === undefined)
    return withMetadata(reply, { handoffPath, ...extra });
  const pending = nestPendingCalls(pendingToolCalls, agent.name, undefined);
  return withMetadata(reply, {
    handoffPath,
    ...extra,
    pendingToolCalls: pending as unknown as JsonObject[],
  });
}

function maxHandoffsOf(options: HandoffOptions): number {
  const max = options.maxHandoffs ?? 5;
  if (!(Number.isInteger(max) && max >= 0)) {
    throw new InvalidArgumentError(
      `${WHERE}: options.maxHandoffs must be a whole number ≥ 0 (got ${String(max)}).`,
    );
  }
  return max;
}

/**
 * The usage of every hop of a pipeline, by agent name (flattened like `usageByAgent`), and
 * the dollars the hops reported spending (`metadata.costUsd`, given when a budget prices them).
 */
class PipelineUsage {
  #total: Usage | undefined;
  #byAgent: Record<string, Usage> | undefined;
  #costUsd: number | undefined;

  add(agentName: string, reply: Msg): void {
    const { usage, usageByAgent, costUsd } = replyMetadata(reply);
    if (costUsd !== undefined) this.#costUsd = (this.#costUsd ?? 0) + costUsd;
    if (usage === undefined) return;
    this.#total = addUsage(this.#total, usage);
    this.#byAgent ??= {};
    for (const [name, used] of Object.entries(usageByAgent ?? { [agentName]: usage }))
      this.#byAgent[name] = { ...addUsage(this.#byAgent[name], used)! };
  }

  /** What is left of `budget` after the hops so far. */
  left(budget: Budget): Budget {
    return budgetLeft(budget, this.#total?.totalTokens ?? 0, this.#costUsd ?? 0);
  }

  /**
   * `usage` (the sum over the hops) and `usageByAgent`, when any hop reported usage;
   * `costUsd` (the sum over the hops, to a millionth of a cent) when any hop reported it.
   */
  metadata(): JsonObject {
    const cost =
      this.#costUsd === undefined ? {} : { costUsd: Math.round(this.#costUsd * 1e8) / 1e8 };
    if (this.#total === undefined) return cost;
    return {
      usage: { ...this.#total },
      usageByAgent: this.#byAgent as unknown as JsonObject,
      ...cost,
    };
  }
}
