import { type JsonObject, type Msg, type ToolUseBlock, toolUses } from '@rxagent/core';
import { isObservable, map, type Observable, of } from 'rxjs';
import { budgetStop } from '../budget/callBudget.js';
import type { AgentParts } from '../parts/agentParts.js';
import {
  type ReasoningOutcome,
  type ReasoningSetup,
  startReasoningStep,
} from '../reasoning/reasoningStep.js';
import { summaryStep } from '../reasoning/summaryStep.js';
import { approvalStep, type Decisions, decidedActing, type Resolutions } from './approval.js';
import { emptyAnswerDecision } from './emptyAnswer.js';
import { closeOverBudget } from './limits.js';
import { nestedApprovalStep, resumedCalls } from './nestedApproval.js';
import type { ReActCallState } from './reactCallState.js';
import type { StepStart } from './reactLoop.js';
import type { FinalAnswerDecision, RunnableStep, Step } from './step.js';
import { storedFinal } from './storedFinal.js';
import { recordToolFailures, summaryInstructionFor } from './toolFailures.js';

/**
 * What the steps ask of their agent `A` (its interrupt checkpoint and its extension points),
 * one object shared by every agent of a class, so an agent holds no closures for it.
 */
export interface StepHost<A> {
  /** The interrupt checkpoint before each step (errors like `checkInterrupted()`), or `undefined`. */
  interrupted(agent: A): Observable<never> | undefined;
  /** A subclass's `onFinalAnswer`, or `undefined` for the default (`defaultFinalDecision`). */
  onFinalAnswer(
    agent: A,
    reply: Msg,
    state: ReActCallState,
  ): Observable<FinalAnswerDecision> | undefined;
  /** `onActingComplete`: a returned Msg ends the call. */
  onActingComplete(agent: A, results: readonly Msg[], state: ReActCallState): Msg | undefined;
}

/**
 * The steps of a ReActAgent's reason → act loop, one instance per agent: `next` runs one
 * step (reasoning, a tool batch, or the tool-less summary) after the interrupt checkpoint
 * and gives the step after it. The agent's parts enter where a step decides: about a final
 * answer (`finalAnswer`) and at the end of a tool batch (`afterActing`).
 */
export class ReActSteps<A> {
  /** How reasoning requests are made: the agent's setup, with the parts' hint (the open plan). */
  readonly setup: ReasoningSetup;

  constructor(
    readonly agent: A,
    readonly host: StepHost<A>,
    setup: ReasoningSetup,
    /** Tool calls of one reply run at most this many at once. */
    readonly concurrency: number,
    /** Whether identical repeated tool calls of a call are answered without running. */
    readonly dedupe: boolean,
    readonly parts: AgentParts,
  ) {
    const hint = parts.requestHint();
    this.setup = hint ? { ...setup, hint } : setup;
  }

  /**
   * What the default `onFinalAnswer` decides, without an Observable unless a part (the
   * finish guard) asks one (the loop takes a decision made at once as it is): the
   * empty-answer reminder, then the parts in order, else the reply is accepted.
   */
  defaultFinalDecision(
    reply: Msg,
    state: ReActCallState,
  ): FinalAnswerDecision | Observable<FinalAnswerDecision> {
    const empty = emptyAnswerDecision(reply, state);
    if (empty) return empty;
    // The open plan's reminder, then the finish guard.
    return this.parts.finalAnswer(reply, state) ?? { accept: true, reply };
  }

  /** Runs one step, after an interrupt checkpoint (errors like `checkInterrupted()`). */
  next(step: RunnableStep, state: ReActCallState): Observable<Step> | StepStart {
    // No defer: the loop calls this when it subscribes, and turns a throw into the step's error.
    const interrupted = this.host.interrupted(this.agent);
    if (interrupted) return interrupted;
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
    const spent = budgetStop(state);
    if (spent) return of(spent);
    takeSteered(state);
    state.stats.modelCalls++;
    const instruction = summaryInstructionFor(state, reason);
    return summaryStep(state, this.setup, state.maxIters, instruction).pipe(
      map((reply) => storedFinal(state, reply, reply.metadata['guardrail'] ? 'guardrail' : reason)),
    );
  }

  #reason(state: ReActCallState): Observable<Step> | StepStart {
    if (state.iterations >= state.maxIters) return of({ kind: 'summary' });
    const spent = budgetStop(state);
    if (spent) return of(spent);
    state.iterations++;
    state.stats.modelCalls++;
    takeSteered(state);
    // Started by the loop itself: no Observable around the step.
    return (sink) =>
      startReasoningStep(state, this.setup, sink, (outcome) =>
        this.#afterReasoning(outcome, state),
      );
  }

  /** The step after a model reply (decided at once, or later): act on its calls, or decide about a final answer. */
  #afterReasoning(
    { reply, stopRequested, refused }: ReasoningOutcome,
    state: ReActCallState,
  ): Step | Observable<Step> {
    if (refused) return storedFinal(state, reply, 'guardrail');
    const { transcript } = state;
    const calls = toolUses(reply);
    if (calls.length === 0) {
      if (stopRequested) return storedFinal(state, reply, 'stop');
      // A subclass's onFinalAnswer is asked through its Observable; the default decides at once.
      const decision =
        this.host.onFinalAnswer(this.agent, reply, state) ??
        this.defaultFinalDecision(reply, state);
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
      concurrency: this.concurrency,
      dedupe: this.dedupe,
      invalidArguments,
      ...(resolved && { resolved }),
      ...(resumed !== undefined && { resumed }),
    };
    return decidedActing(state, calls, setup, decisions, (outcome): Step => {
      const { results, stopRequested, suspended } = outcome;
      if (suspended.length > 0) return nestedApprovalStep(state.transcript, suspended);
      const handoff = this.parts.afterActing(calls, results, state);
      if (handoff) return handoff;
      const finished = this.host.onActingComplete(this.agent, results, state);
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
      return storedFinal(state, decision.reply, cut ? 'length' : 'stop', metadata);
    }
    if (decision.keepDraft) state.transcript.add(draft);
    state.transcript.add(decision.feedback);
    return { kind: 'reason' };
  }
}

/** Stores what `steer()` gave the call since its last model request, for the next one. */
function takeSteered(state: ReActCallState): void {
  for (const msg of state.context.takeSteered()) state.transcript.addSteered(msg);
}
