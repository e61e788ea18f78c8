import {
  AgentBase,
  type Budget,
  type CallContext,
  type ChatModel,
  checkBudget,
  checkPriced,
  createMsg,
  freezeMsg,
  InMemoryMemory,
  type InterruptContext,
  InvalidArgumentError,
  type JsonObject,
  type Memory,
  type Msg,
  SkillSet,
  StoreOnceMemory,
  skillTools,
  Toolkit,
  type ToolUseBlock,
  toolUses,
  withMetadata,
} from '@rxagent/core';
import { concatMap, defer, EMPTY, isObservable, map, Observable, of } from 'rxjs';
import { budgetSpentText, UsageMeter } from './budget/usageMeter.js';
import { AgentGuardrails } from './guardrails/agentGuardrails.js';
import type { FinishGuard } from './judge/finishGuard.js';
import { runFinishGuard } from './judge/runFinishGuard.js';
import { admitInput, inputCharLimit } from './loop/admitInput.js';
import { approvalStep, type Decisions, decidedActing, type Resolutions } from './loop/approval.js';
import { type ApprovalRule, checkApprovalRules } from './loop/approvalRules.js';
import { callStatsMetadata } from './loop/callStats.js';
import { emptyAnswerDecision } from './loop/emptyAnswer.js';
import { Handoffs } from './loop/handoffs.js';
import { agentLimits, closeOverBudget, positiveLimit } from './loop/limits.js';
import { nestedApprovalStep, resumedCalls } from './loop/nestedApproval.js';
import { ReActCallState } from './loop/reactCallState.js';
import { ReActCheckpoints, resumeStep } from './loop/reactCheckpoints.js';
import { runReactLoop, type StepStart, stepObservable } from './loop/reactLoop.js';
import { RememberedApprovals } from './loop/rememberedApprovals.js';
import type { FinalAnswerDecision, FinalStep, RunnableStep, Step } from './loop/step.js';
import { recordToolFailures, summaryInstructionFor } from './loop/toolFailures.js';
import { Transcript } from './loop/transcript.js';
import { AgentLongTermMemory, longTermMemoryMode } from './memory/agentLongTermMemory.js';
import { agentOffload } from './offload/agentOffload.js';
import type { ResultOffload } from './offload/resultOffload.js';
import { openPlanDecision } from './plan/openPlanReminder.js';
import { type Plan, planJson } from './plan/plan.js';
import { PlanNotebook } from './plan/planNotebook.js';
import { planTools } from './plan/planTools.js';
import { REACT_AGENT_OPTION_KEYS, type ReActAgentOptions } from './reactAgentOptions.js';
import { reasoningSetup } from './reasoning/reasoningSetup.js';
import {
  type ReasoningOutcome,
  type ReasoningSetup,
  startReasoningStep,
} from './reasoning/reasoningStep.js';
import { summaryStep } from './reasoning/summaryStep.js';

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
  readonly #setup: ReasoningSetup;
  readonly #concurrency: number;
  readonly #dedupe: boolean;
  readonly #finishGuard: FinishGuard | undefined;
  readonly #handoffs: Handoffs;
  readonly #callToolkit: Toolkit; // `toolkit` with the transfer tools of `handoffs`
  readonly #maxInputChars: number;
  readonly #plan: PlanNotebook | undefined;
  readonly #approvalRules: readonly ApprovalRule[];
  readonly #systemPrompt: string; // sysPrompt plus the skills catalog, built once: byte-stable
  readonly #guardrails: AgentGuardrails | undefined;
  readonly #offload: ResultOffload | undefined;
  /** Tools approved for the rest of the conversation (`toolDecisions({ remember })`), in state. */
  readonly #approvals = new RememberedApprovals();
  #current: ReActCallState | undefined; // the running call's room, for its interrupt reply
  readonly #longTerm: AgentLongTermMemory | undefined; // `longTermMemory`, at the step boundaries

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
    const plan = this.#plan;
    const setup = reasoningSetup(options);
    this.#setup = plan ? { ...setup, hint: () => plan.hint() } : setup;
    this.#maxInputChars = inputCharLimit(options.name, options.maxInputChars);
    this.#concurrency = options.parallelToolCalls === false ? 1 : (options.toolConcurrency ?? 8);
    this.#dedupe = options.dedupeToolCalls ?? true;
    this.#finishGuard = options.finishGuard;
    this.#handoffs = Handoffs.of(this.name, options.handoffs);
    this.#approvalRules = checkApprovalRules(options.name, options.approvalRules);
    this.#guardrails = AgentGuardrails.of(options.name, options.guardrails);
    const toolGuard = this.#guardrails?.toolHook(() => this.#current?.context);
    if (toolGuard) this.addHook(toolGuard);
    const skills = agentSkills(options);
    this.#systemPrompt = skills ? joinSections(this.sysPrompt, skills.catalog()) : this.sysPrompt;
    this.#longTerm = options.longTermMemory
      ? new AgentLongTermMemory(
          options.longTermMemory,
          longTermMemoryMode(options.name, options.longTermMemoryMode),
          this,
          (event) => this.notify(event),
        )
      : undefined;
    const callToolkit = this.#handoffs.extend(this.toolkit);
    const offload = agentOffload(options);
    this.#offload = offload.offload;
    const extra = [
      ...(this.#longTerm?.tools() ?? []),
      ...(plan ? planTools(plan) : []),
      ...(skills ? skillTools(skills) : []),
    ];
    this.#callToolkit = offload.extend(extra.length > 0 ? callToolkit.extend(extra) : callToolkit);
    this.registerState('memory', this.memory);
    this.registerState('toolkit', this.toolkit);
    this.registerState('approvals', this.#approvals);
    if (plan) this.registerState('plan', plan);
    if (this.#offload) this.registerState('offload', this.#offload);
    if (this.#longTerm) this.registerState('longTermMemory', this.#longTerm.outbox);
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
    const guardrails = this.#guardrails;
    // Input guardrails decide before anything is stored or sent (a recovered call's input
    // was admitted before its crash).
    if (guardrails === undefined || !guardrails.watches('input') || context.recovered)
      return this.#run(msgs, context);
    return guardrails
      .admit(msgs, context)
      .pipe(
        concatMap((admission) =>
          admission.kind === 'admitted'
            ? this.#run(admission.msgs, context)
            : of(refusedInput(admission.reply)),
        ),
      );
  }

  /** The call proper, on its admitted input. */
  #run(msgs: Msg[], context: CallContext): Observable<Msg> {
    return new Observable<Msg>((subscriber) => {
      const { maxIters = this.maxIters } = context.options;
      positiveLimit(`${this.name}.call()`, 'options.maxIters', maxIters);
      const budget = this.#callBudget(context); // checked before anything is stored
      const transcript = new Transcript(this.memory, this.name);
      const { recovered } = context;
      const resuming = recovered?.['admitted'] === true;
      const isTool = (name: string) => this.#callToolkit.has(name);
      const admitted = resuming
        ? undefined
        : admitInput(transcript, msgs, this.#maxInputChars, isTool);
      // Tools remembered with the decisions are approved from now on (kept in state).
      const decided = admitted?.kind === 'act' ? admitted.decisions : undefined;
      // (A sub-agent's tools named there are remembered by that sub-agent, when it resumes.)
      const remembered = decided?.remember.filter(isTool) ?? [];
      if (decided && remembered.length > 0)
        this.#approvals.remember(remembered, decided.by, decided.at);
      const state = this.createCallState(context, transcript);
      state.approvalRules = this.#approvalRules;
      state.approvals = this.#approvals;
      state.maxIters = maxIters;
      state.maxToolFailures = this.maxToolFailures;
      state.planVersion = this.#plan?.version ?? 0;
      state.offload = this.#offload;
      state.meter = new UsageMeter(context, budget, this.model.modelName);
      state.outputGuard = this.#guardrails?.outputGuard(context);
      const first = admitted ?? resumeStep(recovered!, state);
      this.#current = state;
      let outcome: 'complete' | 'error' | undefined;
      const checkpoints = context.durable
        ? new ReActCheckpoints(state, first, resuming ? recovered : undefined)
        : undefined;
      state.checkpoints = checkpoints;
      const stepOf = checkpoints
        ? (step: RunnableStep) => checkpoints.afterStep(stepObservable(this.#next(step, state)))
        : (step: RunnableStep) => this.#next(step, state);
      const fresh = admitted?.kind === 'reason';
      const next = this.#longTerm?.forCall(state, msgs, fresh, stepOf) ?? stepOf;
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
        this.#longTerm?.afterCall(); // the observer's facts, written once the reply is out
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
    const decision = this.#defaultFinalDecision(reply, state);
    return isObservable(decision) ? decision : of(decision);
  }

  /**
   * What the default `onFinalAnswer` decides, without an Observable unless the finish guard
   * is asked (the loop takes a decision made at once as it is).
   */
  #defaultFinalDecision(
    reply: Msg,
    state: ReActCallState,
  ): FinalAnswerDecision | Observable<FinalAnswerDecision> {
    const empty = emptyAnswerDecision(reply, state);
    if (empty) return empty;
    const openPlan = openPlanDecision(state, this.#plan);
    if (openPlan) return openPlan;
    const guard = this.#finishGuard;
    if (!guard) return { accept: true, reply };
    return runFinishGuard(guard, this, reply, state);
  }

  /** Called after each tool batch with its stored results; a returned Msg ends the call. */
  protected onActingComplete(_results: readonly Msg[], _state: ReActCallState): Msg | undefined {
    return undefined;
  }

  /** Called once when a call ends, however it ends. */
  protected onCallEnd(_state: ReActCallState, _outcome: 'complete' | 'error' | 'cancelled'): void {}

  /** Runs one step, after an interrupt checkpoint (errors like `checkInterrupted()`). */
  #next(step: RunnableStep, state: ReActCallState): Observable<Step> | StepStart {
    // No defer: the loop calls this when it subscribes, and turns a throw into the step's error.
    if (this.interruptRequested) return this.checkInterrupted();
    switch (step.kind) {
      case 'reason':
        return this.#reason(state);
      case 'act':
        return this.#act(step.calls, step.invalidArguments, state, step.decisions, step.resolved);
      case 'summary':
        return this.#summarize(state, step.reason ?? 'max_iterations');
    }
  }

  #summarize(state: ReActCallState, reason: 'max_iterations' | 'tool_failures'): Observable<Step> {
    const spent = this.#budgetStop(state);
    if (spent) return of(spent);
    takeSteered(state);
    state.stats.modelCalls++;
    const instruction = summaryInstructionFor(state, reason);
    return summaryStep(state, this.#setup, state.maxIters, instruction).pipe(
      map((reply) => this.#store(state, reply, reply.metadata['guardrail'] ? 'guardrail' : reason)),
    );
  }

  #reason(state: ReActCallState): Observable<Step> | StepStart {
    if (state.iterations >= state.maxIters) return of({ kind: 'summary' });
    const spent = this.#budgetStop(state);
    if (spent) return of(spent);
    state.iterations++;
    state.stats.modelCalls++;
    takeSteered(state);
    // Started by the loop itself: no Observable around the step.
    return (sink) =>
      startReasoningStep(state, this.#setup, sink, (outcome) =>
        this.#afterReasoning(outcome, state),
      );
  }

  /** The step after a model reply (decided at once, or later): act on its calls, or decide about a final answer. */
  #afterReasoning(
    { reply, stopRequested, refused }: ReasoningOutcome,
    state: ReActCallState,
  ): Step | Observable<Step> {
    if (refused) return this.#store(state, reply, 'guardrail');
    const { transcript } = state;
    const calls = toolUses(reply);
    if (calls.length === 0) {
      if (stopRequested) return this.#store(state, reply, 'stop');
      // A subclass's onFinalAnswer is asked through its Observable; the default decides at once.
      const decision =
        this.onFinalAnswer === ReActAgent.prototype.onFinalAnswer
          ? this.#defaultFinalDecision(reply, state)
          : this.onFinalAnswer(reply, state);
      if (!isObservable(decision)) return this.#decide(decision, reply, state);
      return decision.pipe(map((decided) => this.#decide(decided, reply, state)));
    }
    transcript.add(reply);
    if (stopRequested) return { kind: 'final', reply, reason: 'tool_calls_stopped' };
    if (state.iterations >= state.maxIters) {
      closeOverBudget(state, calls);
      return { kind: 'summary' };
    }
    const invalid = (reply.metadata['invalidToolArguments'] as JsonObject | undefined) ?? {};
    return approvalStep(state, reply, calls, invalid);
  }

  /** Runs a tool batch (after a human's decisions, if any), then picks the next step. */
  #act(
    calls: readonly ToolUseBlock[],
    invalidArguments: JsonObject,
    state: ReActCallState,
    decisions: Decisions | undefined,
    resolved: Resolutions | undefined,
  ): Observable<Step> | StepStart {
    const resumed = resumedCalls(state.transcript, calls, decisions);
    const setup = {
      concurrency: this.#concurrency,
      dedupe: this.#dedupe,
      invalidArguments,
      ...(resolved && { resolved }),
      ...(resumed !== undefined && { resumed }),
    };
    return decidedActing(state, calls, setup, decisions, (outcome): Step => {
      const { results, stopRequested, suspended } = outcome;
      if (suspended.length > 0) return nestedApprovalStep(state.transcript, suspended);
      const handoff = this.#handoffs.finalStep(calls, results, state.transcript);
      if (handoff) return handoff;
      const finished = this.onActingComplete(results, state);
      if (finished) return { kind: 'final', reply: finished, reason: 'structured_output' };
      const last = results[results.length - 1];
      if (stopRequested && last) return { kind: 'final', reply: last, reason: 'acting_stopped' };
      if (recordToolFailures(state, results)) return { kind: 'summary', reason: 'tool_failures' };
      return { kind: 'reason' };
    });
  }

  #decide(decision: FinalAnswerDecision, draft: Msg, state: ReActCallState): Step {
    const metadata = decision.details ? { finishGuard: decision.details } : undefined;
    if (decision.accept) {
      // A reply cut by the output-token limit is what the model said before the cut.
      const cut = decision.reply.metadata['finishReason'] === 'length';
      return this.#store(state, decision.reply, cut ? 'length' : 'stop', metadata);
    }
    if (decision.keepDraft) state.transcript.add(draft);
    state.transcript.add(decision.feedback);
    return { kind: 'reason' };
  }

  #store(
    state: ReActCallState,
    reply: Msg,
    reason: FinalStep['reason'],
    metadata?: JsonObject,
  ): FinalStep {
    state.transcript.add(reply);
    return { kind: 'final', reply, reason, ...(metadata !== undefined && { metadata }) };
  }

  #finalReply(step: FinalStep, state: ReActCallState): Msg {
    const stats = callStatsMetadata(state);
    const meter = state.meter.metadata();
    const plan = this.#planMetadata(state);
    const reason = step.reason;
    return withMetadata(step.reply, {
      ...step.metadata,
      ...stats,
      ...meter,
      ...plan,
      generateReason: reason,
    });
  }

  /** `metadata.plan`: the plan with its states, when it is open or the call changed it. */
  #planMetadata(state: ReActCallState): JsonObject | undefined {
    const notebook = this.#plan;
    const plan = notebook?.plan;
    if (plan === undefined || (plan.finished && notebook!.version === state.planVersion))
      return undefined;
    return { plan: planJson(plan) };
  }

  /** The call's budget: its own (`call(input, { budget })`) or the agent's; checked against the model. */
  #callBudget(context: CallContext): Budget | undefined {
    const own = context.options.budget;
    if (own === undefined) return this.budget;
    checkPriced(`${this.name}.call()`, own, this.model.modelName);
    return own;
  }

  /**
   * The final step of a call whose budget is spent (no request is made then), or
   * `undefined`. Memory is valid here: every tool call of the call has its result. The
   * stored reply says which limit was reached and what was used (`metadata.budget`).
   */
  #budgetStop(state: ReActCallState): FinalStep | undefined {
    const spent = state.meter.spent();
    if (spent === undefined) return undefined;
    const reply = createMsg({
      name: this.name,
      role: 'assistant',
      content: budgetSpentText(this.name, spent),
      metadata: { budget: spent as unknown as JsonObject },
    });
    return this.#store(state, reply, 'budget');
  }
}

/** The reply of a call whose input a guardrail refused: nothing was stored or sent. */
function refusedInput(reply: Msg): Msg {
  return withMetadata(reply, {
    generateReason: 'guardrail',
    stats: { iterations: 0, modelCalls: 0, toolCalls: 0, elapsedMs: 0 },
  });
}

/** Stores what `steer()` gave the call since its last model request, for the next one. */
function takeSteered(state: ReActCallState): void {
  for (const msg of state.context.takeSteered()) state.transcript.addSteered(msg);
}

/** The checked `budget` option of `new ReActAgent(options)`. */
function agentBudget(options: ReActAgentOptions): Budget | undefined {
  if (options.budget === undefined) return undefined;
  const where = `ReActAgent "${options.name}"`;
  const budget = checkBudget(where, options.budget);
  checkPriced(where, budget, options.model.modelName);
  return budget;
}

/** The plan notebook of `new ReActAgent(options)` with `plan: true`; checks the option. */
function agentSkills(options: ReActAgentOptions): SkillSet | undefined {
  const { skills } = options;
  if (skills === undefined) return undefined;
  if (!(skills instanceof SkillSet))
    throw new InvalidArgumentError(
      `ReActAgent "${options.name}": skills must be what loadSkills(dir) returns (a SkillSet).`,
    );
  return skills.skills.length > 0 ? skills : undefined;
}

function joinSections(prompt: string, section: string): string {
  return prompt === '' ? section : `${prompt}\n\n${section}`;
}

function planNotebook(options: ReActAgentOptions): PlanNotebook | undefined {
  const { plan } = options;
  if (plan !== undefined && typeof plan !== 'boolean')
    throw new InvalidArgumentError(
      `ReActAgent "${options.name}": plan must be a boolean, got ${typeof plan}.`,
    );
  return plan === true ? new PlanNotebook() : undefined;
}
