import { concat, concatMap, defer, ignoreElements, type Observable, of } from 'rxjs';
import type { AgentBase } from '../agent/agentBase.js';
import { replyMetadata } from '../agent/replyMetadata.js';
import { HandoffError, InvalidArgumentError } from '../errors.js';
import { normalizeInput } from '../internal/normalizeInput.js';
import type { JsonObject } from '../json.js';
import { type Msg, withMetadata } from '../message/msg.js';
import { nestPendingCalls } from '../message/pendingToolCall.js';
import { readToolDecisions } from '../message/toolDecisions.js';
import type { Usage } from '../model/chatModel.js';
import { addUsage } from '../model/chatResponse.js';
import { checkOptions } from '../options/checkOptions.js';
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
}

const WHERE = 'handoffPipeline()';

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
    checkOptions(options, ['maxHandoffs', 'startWith'], WHERE);
    const list = checkAgents(agents, WHERE, { allowEmpty: false });
    const run = new HandoffRun(list, maxHandoffsOf(options));
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
    return agent.call(input).pipe(concatMap((reply) => this.#follow(agent, reply)));
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

/** The usage of every hop of a pipeline, by agent name (flattened like `usageByAgent`). */
class PipelineUsage {
  #total: Usage | undefined;
  #byAgent: Record<string, Usage> | undefined;

  add(agentName: string, reply: Msg): void {
    const { usage, usageByAgent } = replyMetadata(reply);
    if (usage === undefined) return;
    this.#total = addUsage(this.#total, usage);
    this.#byAgent ??= {};
    for (const [name, used] of Object.entries(usageByAgent ?? { [agentName]: usage }))
      this.#byAgent[name] = { ...addUsage(this.#byAgent[name], used)! };
  }

  /** `usage` (the sum over the hops) and `usageByAgent`, when any hop reported usage. */
  metadata(): JsonObject {
    if (this.#total === undefined) return {};
    return {
      usage: { ...this.#total },
      usageByAgent: this.#byAgent as unknown as JsonObject,
    };
  }
}
