import { createMsg, type Msg, type PostSummaryEvent, type PreSummaryEvent } from '@rxagent/core';
import { concatMap, defer, map, type Observable } from 'rxjs';
import type { ReasoningSetup } from '../reasoning/reasoningStep.js';
import { streamReply } from '../reasoning/streamReply.js';
import type { ReActCallState } from './reactCallState.js';
import type { StepHost } from './stepHost.js';

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
 * postSummary hooks. The instruction is sent, not stored. Cold; emits the reply (not stored).
 */
export function summaryStep(
  host: StepHost,
  state: ReActCallState,
  setup: ReasoningSetup,
  maxIters: number,
): Observable<Msg> {
  return defer(() => {
    const event: PreSummaryEvent = {
      type: 'preSummary',
      agent: host.agent,
      messages: [...host.memory.messages(), summaryInstruction(maxIters)],
      systemPrompt: state.context.systemPrompt,
    };
    return host.notify(event);
  }).pipe(
    concatMap((event) =>
      streamReply(host, state, setup.model, {
        messages: setup.formatter(event.messages, {
          systemPrompt: event.systemPrompt,
          selfName: host.name,
        }),
        options: { ...setup.modelOptions },
      }),
    ),
    concatMap((reply) =>
      host.notify<PostSummaryEvent>({
        type: 'postSummary',
        agent: host.agent,
        reply,
        ...state.lastResponse,
      }),
    ),
    map((event) => event.reply),
  );
}
