import type { JsonObject, Msg } from '@rxagent/core';
import type { ReActCallState } from './reactCallState.js';
import type { FinalStep } from './step.js';

/** Stores `reply` through the call's transcript and returns the final step that ends the call with it. */
export function storedFinal(
  state: ReActCallState,
  reply: Msg,
  reason: FinalStep['reason'],
  metadata?: JsonObject,
): FinalStep {
  state.transcript.add(reply);
  return { kind: 'final', reply, reason, ...(metadata !== undefined && { metadata }) };
}
