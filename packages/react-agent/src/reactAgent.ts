import {
  AgentBase,
  type Budget,
  type CallContext,
  type ChatModel,
  freezeMsg,
  InMemoryMemory,
  type InterruptContext,
  type Memory,
  type Msg,
  StoreOnceMemory,
  Toolkit,
  withMetadata,
} from '@rxagent/core';
import { concatMap, defer, EMPTY, isObservable, map, Observable, of } from 'rxjs';
import { agentBudget, callBudget } from './budget/callBudget.js';
import { UsageMeter } from './budget/usageMeter.js';
import { refusedInput } from './guardrails/guardrailsPart.js';
import { admitInput, inputCharLimit } from './loop/admitInput.js';
import { callStatsMetadata } from './loop/callStats.js';
import { durableSteps } from './loop/durableSteps.js';
import { agentLimits, positiveLimit } from './loop/limits.js';
import { ReActCallState } from './loop/reactCallState.js';
import { resumeStep } from './loop/reactCheckpoints.js';
import { runReactLoop } from './loop/reactLoop.js';
import { ReActSteps, type StepHost } from './loop/reactSteps.js';
import { RememberedApprovals, rememberDecided } from './loop/rememberedApprovals.js';
import type { FinalAnswerDecision, FinalStep, RunnableStep } from './loop/step.js';
import { Transcript } from './loop/transcript.js';
import type { AgentParts } from './parts/agentParts.js';
import { optionParts } from './parts/optionParts.js';
import type { Plan } from './plan/plan.js';
import type { PlanNotebook } from './plan/planNotebook.js';
import { planNotebook } from './plan/planPart.js';
import { REACT_AGENT_OPTION_KEYS, type ReActAgentOptions } from './reactAgentOptions.js';
import { reasoningSetup } from './reasoning/reasoningSetup.js';

/** How the steps reach an agent's protected members: one object for every ReActAgent. */
let stepHost: StepHost<ReActAgent>;

/**
 * An agent that reasons and acts over native function calling: it asks the model, runs the
 * tools the model calls (in parallel, results in call order), and asks again, until the model
 * answers without tool calls, a hook stops it, a tool call needs approval, or `maxIters`
 * (or `maxToolFailures`) is reached. Every reply carries `metadata.stats`.
 *
 * The system prompt is prepended to every request and never stored; memory stays a valid
 * conversation at every exit (every `tool_use` has its `tool_result`).
 *
 * @example
 * ```ts
 * const agent = new ReActAgent({
 *   name: 'assistant',
 *   sysPrompt: 'You are a helpful assistant.',
 *   model: new OpenAIChatModel({ model: 'gpt-4o-mini' }),
 *   toolkit: new Toolkit([getWeather]),
 * });
 * const reply = await lastValueFrom(agent.call(userMsg('Weather in Paris?')));
 * ```
 */
export class ReActAgent extends AgentBase {
  /**
   * The option names ReActAgent adds (see `ReActAgentOptions`): any other key is a TypeError
   * naming it and the likely right one (`tools` → `toolkit`, `instructions` → `sysPrompt`).
   */
  static override readonly optionKeys: readonly string[] = REACT_AGENT_OPTION_KEYS;

  /**
   * The conversation: `options.memory` (default an `InMemoryMemory`) behind a
   * `StoreOnceMemory`, so each Msg is stored once whatever that Memory does.
   */
  readonly memory: Memory;
  readonly toolkit: Toolkit;
  readonly model: ChatModel;
  readonly sysPrompt: string;
  readonly maxIters: number;
  readonly maxToolFailures: number;
  /** What each call may spend (`budget` option), unless the call brings its own. */
  readonly budget: Budget | undefined;
  readonly #steps: ReActSteps<ReActAgent>;
  readonly #callToolkit: Toolkit; // `toolkit` with the tools of the parts
  readonly #maxInputChars: number;
  readonly #plan: PlanNotebook | undefined;
  /** One collaborator per option set, asked at the step boundaries; none without options. */
  readonly #parts: AgentParts;
  readonly #systemPrompt: string; // sysPrompt plus the parts' sections, built once: byte-stable
  /** Tools approved for the rest of the conversation (`toolDecisions({ remember })`), in state. */
  readonly #approvals = new RememberedApprovals();
  #current: ReActCallState | undefined; // the running call's room, for its interrupt reply

  constructor(options: ReActAgentOptions) {
    super(options);
    const { maxIters, maxToolFailures } = agentLimits(options);
    this.maxToolFailures = maxToolFailures;
    this.memory = new StoreOnceMemory(options.memory ?? new InMemoryMemory());
    this.toolkit = options.toolkit ?? new Toolkit();
    this.model = options.model;
    this.sysPrompt = options.sysPrompt ?? '';
    this.maxIters = maxIters;
    this.budget = agentBudget(options);
    this.#plan = planNotebook(options);
    const setup = reasoningSetup(options);
    this.#maxInputChars = inputCharLimit(options.name, options.maxInputChars);
    const concurrency = options.parallelToolCalls === false ? 1 : (options.toolConcurrency ?? 8);
    const parts = optionParts(options, {
      agent: this,
      plan: this.#plan,
      notify: (event) => this.notify(event),
      running: () => this.#current?.context,
    });
    this.#parts = parts;
    for (const hook of parts.hooks()) this.addHook(hook);
    const dedupe = options.dedupeToolCalls ?? true;
    this.#steps = new ReActSteps(this, stepHost, setup, concurrency, dedupe, parts);
    this.#systemPrompt = parts.systemPrompt(this.sysPrompt);
    const tools = parts.tools();
    this.#callToolkit = tools.length > 0 ? this.toolkit.extend(tools) : this.toolkit;
    this.registerState('memory', this.memory);
    this.registerState('toolkit', this.toolkit);
    this.registerState('approvals', this.#approvals);
    for (const [key, module] of parts.states()) this.registerState(key, module);
  }

  /** The plan the model made (`plan: true`), open or finished, if it made one. */
  get plan(): Plan | undefined {
    return this.#plan?.plan;
  }

  protected override defaultSystemPrompt(): string {
    return this.#systemPrompt;
  }

  /** Makes the messages named `from` in memory (that agent's replies and tool results) this agent's. */
  protected override renameSpeaker(from: string, to: string): void {
    const messages = this.memory.messages();
    if (!messages.some((msg) => msg.name === from)) return;
    this.memory.replace(
      messages.map((msg) => (msg.name === from ? freezeMsg({ ...msg, name: to }) : msg)),
    );
  }

  /**
   * Admits the input through the call's transcript, then runs the reason → act loop
   * (`runReactLoop`) and emits the reply of its final step. However the call ends — reply,
   * error, interrupt or unsubscribe — every open tool call is sealed and `onCallEnd` runs
   * once.
   */
  protected override doCall(msgs: Msg[], context: CallContext): Observable<Msg> {
    // Input guardrails decide before anything is stored or sent (a recovered call's input
    // was admitted before its crash).
    const admission = context.recovered ? undefined : this.#parts.admit(msgs, context);
    if (admission === undefined) return this.#run(msgs, context);
    return admission.pipe(
      concatMap((admitted) =>
        admitted.kind === 'admitted'
          ? this.#run(admitted.msgs, context)
          : of(refusedInput(admitted.reply)),
      ),
    );
  }

  /** The call proper, on its admitted input. */
  #run(msgs: Msg[], context: CallContext): Observable<Msg> {
    return new Observable<Msg>((subscriber) => {
      const { maxIters = this.maxIters } = context.options;
      positiveLimit(`${this.name}.call()`, 'options.maxIters', maxIters);
      const budget = callBudget(this.name, this.model.modelName, this.budget, context); // checked before anything is stored
      const transcript = new Transcript(this.memory, this.name);
      const { recovered } = context;
      const resuming = recovered?.['admitted'] === true;
      const isTool = (name: string) => this.#callToolkit.has(name);
      const admitted = resuming
        ? undefined
        : admitInput(transcript, msgs, this.#maxInputChars, isTool);
      // Tools remembered with the decisions are approved from now on (kept in state).
      if (admitted?.kind === 'act') rememberDecided(this.#approvals, admitted.decisions, isTool);
      const state = this.createCallState(context, transcript);
      state.approvals = this.#approvals;
      state.maxIters = maxIters;
      state.maxToolFailures = this.maxToolFailures;
      state.meter = new UsageMeter(context, budget, this.model.modelName);
      this.#parts.startCall(state); // approval rules, output guard, plan version, offload
      const first = admitted ?? resumeStep(recovered!, state);
      this.#current = state;
      let outcome: 'complete' | 'error' | undefined;
      const run = (step: RunnableStep) => this.#steps.next(step, state);
      const stepOf = durableSteps(state, first, resuming ? recovered : undefined, run);
      const fresh = admitted?.kind === 'reason';
      const next = this.#parts.wrapSteps(stepOf, state, msgs, fresh);
      const running = runReactLoop(first, next, {
        final: (step) => subscriber.next(this.#finalReply(step, state)),
        error: (error) => {
          outcome = 'error';
          transcript.seal();
          subscriber.error(error);
        },
        complete: () => {
          outcome = 'complete';
          subscriber.complete();
        },
      });
      return () => {
        running.unsubscribe();
        if (this.#current === state) this.#current = undefined;
        if (outcome === undefined) transcript.seal();
        this.#parts.endCall(state); // e.g. the observer's facts, written once the reply is out
        this.onCallEnd(state, outcome ?? 'cancelled');
      };
    });
  }

  protected override doObserve(msg: Msg): Observable<void> {
    return defer(() => {
      this.memory.add(msg);
      return EMPTY;
    });
  }

  /**
   * The interrupt reply, stored after every open tool call got its `[interrupted]` result
   * and after the message given to `interrupt(message)`, stored as the user's words (a
   * user-role Msg; other roles keep only their text and images), so the next call sees it.
   */
  protected override handleInterrupt(context: InterruptContext, msgs: Msg[]): Observable<Msg> {
    return super.handleInterrupt(context, msgs).pipe(
      map((reply) => {
        const transcript = new Transcript(this.memory, this.name);
        transcript.seal();
        if (context.message) transcript.addUserWords(context.message);
        const stored = withMetadata(reply, { interrupted: true, generateReason: 'interrupted' });
        transcript.add(stored);
        const meter = this.#current?.meter.metadata();
        return withMetadata(stored, { ...callStatsMetadata(this.#current), ...meter });
      }),
    );
  }

  /**
   * The room of a new call; subclasses may choose a per-call toolkit here. Every memory write
   * of the call goes through `transcript`.
   */
  protected createCallState(context: CallContext, transcript: Transcript): ReActCallState {
    return new ReActCallState(context, this.#callToolkit, transcript);
  }

  /**
   * Decides about a reply without tool calls. Default: accept it, unless it is empty (the
   * first time, a reminder is stored and the model asked again; see `emptyAnswerDecision`)
   * or the finish guard rejects it (then the draft is dropped and the feedback stored).
   */
  protected onFinalAnswer(reply: Msg, state: ReActCallState): Observable<FinalAnswerDecision> {
    const decision = this.#steps.defaultFinalDecision(reply, state);
    return isObservable(decision) ? decision : of(decision);
  }

  /** Called after each tool batch with its stored results; a returned Msg ends the call. */
  protected onActingComplete(_results: readonly Msg[], _state: ReActCallState): Msg | undefined {
    return undefined;
  }

  /** Called once when a call ends, however it ends. */
  protected onCallEnd(_state: ReActCallState, _outcome: 'complete' | 'error' | 'cancelled'): void {}

  static {
    stepHost = {
      interrupted: (agent) => (agent.interruptRequested ? agent.checkInterrupted() : undefined),
      onFinalAnswer: (agent, reply, state) =>
        agent.onFinalAnswer === ReActAgent.prototype.onFinalAnswer
          ? undefined
          : agent.onFinalAnswer(reply, state),
      onActingComplete: (agent, results, state) => agent.onActingComplete(results, state),
    };
  }

  #finalReply(step: FinalStep, state: ReActCallState): Msg {
    const stats = callStatsMetadata(state);
    const meter = state.meter.metadata();
    const parts = this.#parts.replyMetadata(state); // e.g. `plan`
    const reason = step.reason;
    return withMetadata(step.reply, {
      ...step.metadata,
      ...stats,
      ...meter,
      ...parts,
      generateReason: reason,
    });
  }
}
