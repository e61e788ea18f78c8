import {
  type CallContext,
  createMsg,
  type GuardrailEvent,
  type GuardrailReport,
  type GuardrailTripMetadata,
  type Msg,
} from '@rxagent/core';
import { concat, defer, EMPTY, ignoreElements, type Observable } from 'rxjs';

/** Fires one `guardrail` hook event per report, in order (nothing when nobody listens). */
export function notifyReports(
  context: CallContext,
  reports: readonly GuardrailReport[],
  toolCallId?: string,
): Observable<never> {
  if (reports.length === 0 || !context.listens('guardrail')) return EMPTY;
  return concat(
    ...reports.map((report) =>
      defer(() => context.notify<GuardrailEvent>(guardrailEvent(context, report, toolCallId))),
    ),
  ).pipe(ignoreElements());
}

function guardrailEvent(
  context: CallContext,
  { guardrail, stage, tripped, replaced, reason }: GuardrailReport,
  toolCallId: string | undefined,
): GuardrailEvent {
  return {
    type: 'guardrail',
    agent: context.agent,
    guardrail,
    stage,
    tripped,
    replaced,
    ...(reason !== undefined && { reason }),
    ...(toolCallId !== undefined && { toolCallId }),
  };
}

/**
 * The reply of a call an input or output guardrail refused: an assistant Msg saying which
 * guardrail tripped and why, with `metadata.guardrail`.
 */
export function refusalReply(
  agentName: string,
  trip: GuardrailReport,
  stage: 'input' | 'output',
): Msg {
  const guardrail: GuardrailTripMetadata = {
    guardrail: trip.guardrail,
    stage,
    ...(trip.reason !== undefined && { reason: trip.reason }),
  };
  const why = trip.reason ?? 'no reason given';
  const what = stage === 'input' ? 'this request' : 'the reply';
  return createMsg({
    name: agentName,
    role: 'assistant',
    content: `I can't help with ${what}: guardrail "${trip.guardrail}" blocked it (${why}).`,
    metadata: { guardrail: { ...guardrail } },
  });
}
