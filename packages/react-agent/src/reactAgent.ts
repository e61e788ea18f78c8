import {
  AgentBase,
  type CallContext,
  type ChatModel,
  formatMessages,
  InMemoryMemory,
  type InterruptContext,
  InvalidArgumentError,
  type JsonObject,
  type Memory,
  type ModelOptions,
  type Msg,
  StoreOnceMemory,
  Toolkit,
  type ToolUseBlock,
  toolUses,
  withMetadata,
} from '@rxagent/core';
import {
  defer,
  EMPTY,
  map,
  Observable,
  of,
  type Subscriber,
  Subscription,
  type TeardownLogic,
} from 'rxjs';
import { actingStep } from './acting/actingStep.js';
import type { FinishGuard } from './judge/finishGuard.js';
import { runFinishGuard } from './judge/runFinishGuard.js';
import { admitInput } from './loop/admitInput.js';
import { pendingToolCalls } from './loop/pendingToolCalls.js';
import { ReActCallState } from './loop/reactCallState.js';
import type { FinalAnswerDecision, GenerateReason, Step } from './loop/step.js';
import type { StepHost } from './loop/stepHost.js';
import { StepPhases } from './loop/stepPhases.js';
import { summaryStep } from './loop/summaryStep.js';
import { errorResult, interruptedResult, toolResultMsg } from './loop/toolResultMsg.js';
import type { ReActAgentOptions } from './reactAgentOptions.js';
import {
  type ReasoningOutcome,
  type ReasoningSetup,
  reasoningStep,
} from './reasoning/reasoningStep.js';

/**
 * An agent that reasons and acts over native function calling: it asks the model, runs the
 * tools the model calls (in parallel, results in call order), and asks again, until the model
 * answers without tool calls, a hook stops it, or `maxIters` is reached.
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
   * The conversation: `options.memory` (default an `InMemoryMemory`) behind a
   * `StoreOnceMemory`, so each Msg is stored once whatever that Memory does.
   */
  readonly memory: Memory;
  readonly toolkit: Toolkit;
  readonly model: ChatModel;
  readonly sysPrompt: string;
  readonly maxIters: number;
  readonly #setup: ReasoningSetup;
  readonly #concurrency: number;
  readonly #dedupe: boolean;
  readonly #finishGuard: FinishGuard | undefined;
  readonly #host: StepHost;

  constructor(options: ReActAgentOptions) {
    super(options);
    if (typeof options.model?.stream !== 'function') {
      throw new InvalidArgumentError(
        `ReActAgent "${options.name}": options.model must be a ChatModel.`,
      );
    }
    const maxIters = options.maxIters ?? 10;
    if (!Number.isInteger(maxIters) || maxIters < 1) {
      throw new InvalidArgumentError(
        `ReActAgent "${options.name}": maxIters must be a positive integer, got ${maxIters}.`,
      );
    }
    // Each Msg is stored once whatever the Memory: a hub reply can also arrive as input.
    this.memory = new StoreOnceMemory(options.memory ?? new InMemoryMemory());
    this.toolkit = options.toolkit ?? new Toolkit();
    this.model = options.model;
    this.sysPrompt = options.sysPrompt ?? '';
    this.maxIters = maxIters;
    const parallel = options.parallelToolCalls;
    this.#setup = {
      model: options.model,
      modelOptions: options.modelOptions ?? ({} satisfies ModelOptions),
      parallelToolCalls: parallel,
      formatter: options.formatter ?? formatMessages,
    };
    this.#concurrency = parallel === false ? 1 : (options.toolConcurrency ?? 8);
    this.#dedupe = options.dedupeToolCalls ?? true;
    this.#finishGuard = options.finishGuard;
    this.#host = {
      agent: this,
      name: this.name,
      memory: this.memory,
      notify: (event) => this.notify(event),
      hasEventListeners: () => this.hasEventListeners,
    };
    this.registerState('memory', this.memory);
    this.registerState('toolkit', this.toolkit);
  }

  protected override defaultSystemPrompt(): string {
    return this.sysPrompt;
  }

  protected override doCall(msgs: Msg[], context: CallContext): Observable<Msg> {
    return new Observable<Msg>((subscriber) => {
      const first = admitInput(this.memory, this.name, msgs);
      return this.#loop(first, this.createCallState(context), subscriber);
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
        this.#sealPendingToolCalls();
        if (context.message) this.memory.add(asUserWords(context.message));
        const stored = withMetadata(reply, { interrupted: true, generateReason: 'interrupted' });
        this.memory.add(stored);
        return stored;
      }),
    );
  }

  /** The state of a new call; subclasses may choose a per-call toolkit here. */
  protected createCallState(context: CallContext): ReActCallState {
    return new ReActCallState(context, this.toolkit);
  }

  /**
   * Decides about a reply without tool calls. Default: accept it, unless the finish guard
   * rejects it (then the draft is dropped and the guard's feedback is stored).
   */
  protected onFinalAnswer(reply: Msg, state: ReActCallState): Observable<FinalAnswerDecision> {
    const guard = this.#finishGuard;
    if (!guard) return of({ accept: true, reply });
    return runFinishGuard(guard, this, reply, state);
  }

  /** Called after each tool batch with its stored results; a returned Msg ends the call. */
  protected onActingComplete(_results: readonly Msg[], _state: ReActCallState): Msg | undefined {
    return undefined;
  }

  /** Called once when a call ends, however it ends. */
  protected onCallEnd(_state: ReActCallState, _outcome: 'complete' | 'error' | 'cancelled'): void {}

  /**
   * The reason → act loop: runs each step's Observable and feeds the steps it emits back in
   * (what `expand` does, in one subscriber rather than expand, filter, map, tap and
   * finalize layers a parked call would hold), emits the reply of a final step, and completes
   * once no step is running. Returns the teardown: on error, interrupt or unsubscribe every
   * open tool call is sealed, and `onCallEnd` runs once, however the call ended.
   */
  #loop(first: Step, state: ReActCallState, subscriber: Subscriber<Msg>): TeardownLogic {
    const running = new Subscription();
    let active = 0;
    let outcome: 'complete' | 'error' | undefined;
    const fail = (error: unknown): void => {
      if (outcome !== undefined) return;
      outcome = 'error';
      this.#sealPendingToolCalls();
      subscriber.error(error);
    };
    const stepDone = (): void => {
      active--;
      if (active > 0 || outcome !== undefined) return;
      outcome = 'complete';
      subscriber.complete();
    };
    const run = (step: Step): void => {
      if (step.kind === 'final') {
        subscriber.next(this.#finalReply(step, state));
        return;
      }
      active++;
      running.add(
        this.#next(step, state).subscribe({
          next: (next) => {
            try {
              run(next);
            } catch (error) {
              fail(error);
            }
          },
          error: fail,
          complete: stepDone,
        }),
      );
    };
    run(first);
    return () => {
      running.unsubscribe();
      if (outcome === undefined) this.#sealPendingToolCalls();
      this.onCallEnd(state, outcome ?? 'cancelled');
    };
  }

  #next(step: Step, state: ReActCallState): Observable<Step> {
    switch (step.kind) {
      case 'reason':
        return this.#checkpoint(() => this.#reason(state));
      case 'act':
        return this.#checkpoint(() => this.#act(step.calls, step.invalidArguments, state));
      case 'summary':
        return this.#checkpoint(() => this.#summarize(state));
      case 'final':
        return EMPTY;
    }
  }

  /**
   * An interrupt checkpoint, then `step()`: errors like `checkInterrupted()` when an interrupt
   * is pending. One subscription per step, where concat(checkInterrupted(), defer(step))
   * took five.
   */
  #checkpoint(step: () => Observable<Step>): Observable<Step> {
    return defer(() => (this.interruptRequested ? this.checkInterrupted() : step()));
  }

  #summarize(state: ReActCallState): Observable<Step> {
    return summaryStep(this.#host, state, this.#setup, this.maxIters).pipe(
      map((reply) => this.#store(reply, 'max_iterations')),
    );
  }

  #reason(state: ReActCallState): Observable<Step> {
    if (state.iterations >= this.maxIters) return of({ kind: 'summary' });
    state.iterations++;
    return new Observable<Step>((subscriber) => {
      const phases = new StepPhases(subscriber);
      phases.after(reasoningStep(this.#host, state, this.#setup), (outcome) =>
        phases.forward(this.#afterReasoning(outcome, state)),
      );
      return phases.subscription;
    });
  }

  /** The step after a model reply: act on its tool calls, or decide about a final answer. */
  #afterReasoning(
    { reply, stopRequested }: ReasoningOutcome,
    state: ReActCallState,
  ): Observable<Step> {
    const calls = toolUses(reply);
    if (calls.length === 0) {
      if (stopRequested) return of(this.#store(reply, 'stop'));
      return this.onFinalAnswer(reply, state).pipe(
        map((decision) => this.#decide(decision, reply)),
      );
    }
    this.memory.add(reply);
    if (stopRequested) return of({ kind: 'final', reply, reason: 'tool_calls_stopped' });
    if (state.iterations >= this.maxIters) {
      for (const call of calls) {
        const text = `[not executed] Tool "${call.name}" was not run: the agent reached its limit of ${this.maxIters} reasoning steps.`;
        this.memory.add(toolResultMsg(this.name, errorResult(call, text)));
      }
      return of({ kind: 'summary' });
    }
    const invalid = reply.metadata['invalidToolArguments'];
    return of({
      kind: 'act',
      calls,
      invalidArguments: (invalid as JsonObject | undefined) ?? {},
    });
  }

  #act(
    calls: readonly ToolUseBlock[],
    invalidArguments: JsonObject,
    state: ReActCallState,
  ): Observable<Step> {
    state.stopAfterBatch = false;
    return actingStep(this.#host, state, calls, {
      concurrency: this.#concurrency,
      dedupe: this.#dedupe,
      invalidArguments,
    }).pipe(
      map((results): Step => {
        const finished = this.onActingComplete(results, state);
        if (finished) return { kind: 'final', reply: finished, reason: 'structured_output' };
        const last = results[results.length - 1];
        if (state.stopAfterBatch && last)
          return { kind: 'final', reply: last, reason: 'acting_stopped' };
        return { kind: 'reason' };
      }),
    );
  }

  #decide(decision: FinalAnswerDecision, draft: Msg): Step {
    if (decision.accept) return this.#store(decision.reply, 'stop');
    if (decision.keepDraft) this.memory.add(draft);
    this.memory.add(decision.feedback);
    return { kind: 'reason' };
  }

  #store(reply: Msg, reason: GenerateReason): Step {
    this.memory.add(reply);
    return { kind: 'final', reply, reason };
  }

  #finalReply(step: Extract<Step, { kind: 'final' }>, state: ReActCallState): Msg {
    const extra: JsonObject = { generateReason: step.reason };
    if (state.guardDetails) extra['finishGuard'] = state.guardDetails;
    return withMetadata(step.reply, extra);
  }

  /** Gives every open tool call an `[interrupted]` result, so memory stays a valid conversation. */
  #sealPendingToolCalls(): void {
    for (const call of pendingToolCalls(this.memory.messages()).calls) {
      this.memory.add(toolResultMsg(this.name, interruptedResult(call)));
    }
  }
}

/** `msg` as something the user said: itself when user-role, else a user-role copy of its text and images. */
function asUserWords(msg: Msg): Msg {
  if (msg.role === 'user') return msg;
  const content = msg.content.filter((block) => block.type === 'text' || block.type === 'image');
  return { ...msg, role: 'user', content };
}
