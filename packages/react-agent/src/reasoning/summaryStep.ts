import {
  createMsg,
  estimateTokens,
  type Msg,
  Phases,
  type PostSummaryEvent,
  type PreSummaryEvent,
} from '@rxagent/core';
import { Observable } from 'rxjs';
import { refusalReply } from '../guardrails/guardrailEvents.js';
import { contextFits, contextStep } from '../loop/contextStep.js';
import type { ReActCallState } from '../loop/reactCallState.js';
import type { ReasoningSetup } from './reasoningStep.js';
import { type StreamedReply, streamReply } from './streamReply.js';

/** The framework's request for a final answer when the step budget is spent. */
export function summaryInstruction(maxIters: number): Msg {
  return createMsg({
    name: 'system',
    role: 'user',
    content: `You have used all ${maxIters} reasoning steps allowed for this request, so no more tools can be called. Using what you have found so far, give your best final answer now and say plainly what remains unfinished.`,
    metadata: { systemFeedback: true, feedback: 'max_iterations' },
  });
}

/**
 * The max-iterations summary: one request with `tools` omitted, between preSummary and
 * postSummary hooks. The instruction (default: the max-iterations one) is sent, not stored.
 * With `setup.context`, the context
 * step first makes that request (no tools, the instruction reserved) fit. Cold; emits the
 * reply (not stored).
 */
export function summaryStep(
  state: ReActCallState,
  setup: ReasoningSetup,
  maxIters: number,
  instruction: Msg = summaryInstruction(maxIters),
): Observable<Msg> {
  return new Observable<Msg>((subscriber) => {
    const phases = new Phases(subscriber);
    const { context } = state;
    const request = (event: PreSummaryEvent): void =>
      phases.after(
        streamReply(state, setup.model, {
          messages: setup.formatter(event.messages, {
            systemPrompt: event.systemPrompt,
            selfName: state.agentName,
            model: setup.model.modelName,
          }),
          options: { ...setup.modelOptions },
        }),
        review,
      );
    const hooks = ({ reply, info }: StreamedReply): void =>
      phases.afterHooks<PostSummaryEvent>(
        context,
        { type: 'postSummary', agent: context.agent, reply, ...info },
        (event) => phases.finish(event.reply),
      );
    // With output guardrails the summary is checked like any reply; a refused one ends the
    // call with the refusal (its `metadata.guardrail` says so).
    const review = (streamed: StreamedReply): void => {
      const guard = state.outputGuard;
      if (guard === undefined) hooks(streamed);
      else
        phases.after(guard.review(streamed.reply), (reviewed) => {
          if (reviewed.kind === 'passed') hooks({ reply: reviewed.reply, info: streamed.info });
          else phases.finish(refusalReply(state.agentName, reviewed.trip, 'output'));
        });
    };
    const start = (): void => {
      const preSummary: PreSummaryEvent = {
        type: 'preSummary',
        agent: context.agent,
        messages: [...state.transcript.messages(), instruction],
        systemPrompt: context.systemPrompt,
      };
      phases.afterHooks(context, preSummary, request);
    };
    const settings = setup.context;
    if (settings === undefined) start();
    else {
      const count = settings.countTokens ?? estimateTokens;
      const reserve = count({ systemPrompt: '', messages: [instruction], tools: [] });
      const sizing = {
        context: settings,
        formatter: setup.formatter,
        modelName: setup.model.modelName,
      };
      const withoutTools = { tools: [], reserve };
      if (contextFits(state, sizing, withoutTools)) start();
      else phases.after(contextStep(state, sizing, withoutTools), start);
    }
    return phases.subscription;
  });
}
