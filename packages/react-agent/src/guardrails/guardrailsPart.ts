import { type CallContext, type Msg, withMetadata } from '@rxagent/core';
import type { ReActCallState } from '../loop/reactCallState.js';
import type { AgentPart } from '../parts/agentPart.js';
import { AgentGuardrails } from './agentGuardrails.js';

/**
 * The `guardrails` option as a part, acting only at the stages its guardrails watch: input
 * guardrails admit a fresh call's input, output guardrails give each call the holder of its
 * streamed replies (`state.outputGuard`), and tool-call and tool-result guardrails check
 * through a hook that runs after every other. `running` gives the agent's running call.
 * None without guardrails.
 */
export function guardrailsPart(
  agentName: string,
  option: unknown,
  running: () => CallContext | undefined,
): AgentPart | undefined {
  const guardrails = AgentGuardrails.of(agentName, option);
  if (guardrails === undefined) return undefined;
  const hook = guardrails.toolHook(running);
  return {
    name: 'guardrails',
    ...(hook && { hook }),
    ...(guardrails.watches('input') && {
      admit: (msgs: Msg[], context: CallContext) => guardrails.admit(msgs, context),
    }),
    ...(guardrails.watches('output') && {
      startCall: (state: ReActCallState) => {
        state.outputGuard = guardrails.outputGuard(state.context);
      },
    }),
  } satisfies AgentPart;
}

/** The reply of a call whose input a guardrail refused: nothing was stored or sent. */
export function refusedInput(reply: Msg): Msg {
  return withMetadata(reply, {
    generateReason: 'guardrail',
    stats: { iterations: 0, modelCalls: 0, toolCalls: 0, elapsedMs: 0 },
  });
}
