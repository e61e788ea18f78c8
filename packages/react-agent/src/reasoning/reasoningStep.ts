import {
  type ChatModel,
  type ChatRequest,
  type Formatter,
  type GuardrailReport,
  type ModelOptions,
  type Msg,
  Phases,
  type PostReasoningEvent,
  type PreReasoningEvent,
} from '@rxagent/core';
import { isObservable, Observable, type Subscriber, type Subscription } from 'rxjs';
import { refusalReply } from '../guardrails/guardrailEvents.js';
import type { ContextSettings } from '../loop/contextOptions.js';
import { contextFits, contextStep } from '../loop/contextStep.js';
import type { ReActCallState } from '../loop/reactCallState.js';
import { StopSwitch } from '../loop/stopSwitch.js';
import { type ReplySink, type StreamedReply, startStreamReply } from './streamReply.js';

/** How a reasoning step is set up by its agent. */
export interface ReasoningSetup {
  readonly model: ChatModel;
  readonly modelOptions: ModelOptions;
  readonly parallelToolCalls: boolean | undefined;
  readonly formatter: Formatter;
  /** Keeps requests within a token budget (the agent's `context` option); unset: no counting. */
  readonly context?: ContextSettings;
  /**
   * A message sent last with each reasoning request and never stored (the open plan of an
   * agent with `plan: true`); none when it returns `undefined`.
   */
  readonly hint?: () => Msg | undefined;
}

/**
 * The reply of a reasoning step as postReasoning hooks left it, and whether one asked to stop;
 * or, when an output guardrail refused the reply, `refused` (its verdict) with the refusal as
 * `reply` (no postReasoning hooks ran on either).
 */
export interface ReasoningOutcome {
  readonly reply: Msg;
  readonly stopRequested: boolean;
  readonly refused?: GuardrailReport;
}

/**
 * One reasoning step: with `setup.context`, the context step first makes the request fit
 * (compressing memory, or failing with `ContextWindowError` before anything is sent); then
 * preReasoning hooks shape the request (for this request only), the model streams the
 * reply, postReasoning hooks may change it. Cold; emits one outcome — or, given `then`,
 * emits `then(outcome)`, or goes on with it as its last phase when it is an Observable (its
 * values become the step's), so the caller's next step needs no Observable around this
 * one. Nothing else is stored here
 * except a partial reply when the stream is cut.
 *
 * The phases run one after another in one `new Observable` (see `Phases`): a parked
 * call holds this step for as long as its request is open.
 */
export function reasoningStep(
  state: ReActCallState,
  setup: ReasoningSetup,
): Observable<ReasoningOutcome>;
export function reasoningStep<R>(
  state: ReActCallState,
  setup: ReasoningSetup,
  then: (outcome: ReasoningOutcome) => R | Observable<R>,
): Observable<R>;
export function reasoningStep<R>(
  state: ReActCallState,
  setup: ReasoningSetup,
  then?: (outcome: ReasoningOutcome) => R | Observable<R>,
): Observable<R | ReasoningOutcome> {
  const next = then ?? ((outcome: ReasoningOutcome): R | ReasoningOutcome => outcome);
  return new Observable<R | ReasoningOutcome>((subscriber) =>
    startReasoningStep<R | ReasoningOutcome>(state, setup, subscriber, next),
  );
}

/**
 * What subscribing to `reasoningStep(state, setup, then)` does, for a loop that starts its
 * steps without an Observable around each: what `then` makes of the outcome goes to
 * `subscriber`, which must pass on nothing after its end, as a subscriber would. Returns
 * what stops the step.
 */
export function startReasoningStep<R>(
  state: ReActCallState,
  setup: ReasoningSetup,
  subscriber: Pick<Subscriber<R>, 'next' | 'error' | 'complete'>,
  then: (outcome: ReasoningOutcome) => R | Observable<R>,
): Subscription {
  const phases = new Phases(subscriber);
  const { context } = state;
  // The model request is a phase of this Observable, not one more Observable inside it.
  const sink: ReplySink = {
    next: (streamed) => phases.run(review, streamed),
    error: (error: unknown) => phases.fail(error),
    complete: () => undefined,
  };
  const request = (event: PreReasoningEvent): void => {
    const wire = toRequest(event, state.agentName, setup, context.signal);
    phases.hold(startStreamReply(state, setup.model, wire, sink));
  };
  const review = (streamed: StreamedReply): void => {
    const guard = state.outputGuard;
    if (guard === undefined) {
      hooks(streamed);
      return;
    }
    phases.after(guard.review(streamed.reply), (reviewed) => {
      if (reviewed.kind === 'passed') hooks({ reply: reviewed.reply, info: streamed.info });
      else
        settle({
          reply: refusalReply(state.agentName, reviewed.trip, 'output'),
          stopRequested: false,
          refused: reviewed.trip,
        });
    });
  };
  const settle = (outcome: ReasoningOutcome): void => {
    const next = then(outcome);
    if (isObservable(next)) phases.forward(next);
    else phases.finish(next);
  };
  const hooks = ({ reply, info }: StreamedReply): void => {
    const stop = new StopSwitch();
    const event = stop.attach<PostReasoningEvent>(
      { type: 'postReasoning', agent: context.agent, reply, ...info },
      context.listens('postReasoning'),
    );
    phases.afterHooks(context, event, (final) =>
      settle({ reply: final.reply, stopRequested: stop.stopped }),
    );
  };
  const start = (): void => phases.afterHooks(context, preReasoningEvent(state, setup), request);
  const settings = setup.context;
  const sizing = settings && {
    context: settings,
    formatter: setup.formatter,
    modelName: setup.model.modelName,
  };
  if (sizing === undefined || contextFits(state, sizing)) start();
  else phases.after(contextStep(state, sizing, { firstRequest: state.iterations <= 1 }), start);
  return phases.subscription;
}

/** The preReasoning event of the next request; takes (and clears) a forced tool choice. */
function preReasoningEvent(state: ReActCallState, setup: ReasoningSetup): PreReasoningEvent {
  const toolChoice = state.toolChoice;
  state.toolChoice = undefined;
  return {
    type: 'preReasoning',
    agent: state.context.agent,
    messages: withHint(state.transcript.messages(), setup.hint?.()),
    systemPrompt: state.context.systemPrompt,
    tools: state.toolkit.schemas(),
    toolChoice,
    options: { ...setup.modelOptions },
  };
}

function withHint(messages: readonly Msg[], hint: Msg | undefined): Msg[] {
  return hint === undefined ? [...messages] : [...messages, hint];
}

/** The model request of the preReasoning event as hooks left it, on the call's `signal`. */
function toRequest(
  event: PreReasoningEvent,
  selfName: string,
  setup: ReasoningSetup,
  signal: AbortSignal,
): ChatRequest {
  const messages = setup.formatter(event.messages, {
    systemPrompt: event.systemPrompt,
    selfName,
    model: setup.model.modelName,
  });
  if (event.tools.length === 0) return { messages, options: event.options, signal };
  return {
    messages,
    options: event.options,
    tools: event.tools,
    ...(event.toolChoice !== undefined && { toolChoice: event.toolChoice }),
    ...(setup.parallelToolCalls !== undefined && { parallelToolCalls: setup.parallelToolCalls }),
    signal,
  };
}
