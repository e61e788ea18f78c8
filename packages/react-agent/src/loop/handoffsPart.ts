import type { AgentPart } from '../parts/agentPart.js';
import { type HandoffOption, Handoffs } from './handoffs.js';

/**
 * The `handoffs` option as a part: the transfer tools, and the final step of a call whose
 * tool batch ran one of them. None without targets.
 */
export function handoffsPart(
  agentName: string,
  option: readonly HandoffOption[] | undefined,
): AgentPart | undefined {
  const handoffs = Handoffs.of(agentName, option);
  if (handoffs.tools.length === 0) return undefined;
  return {
    name: 'handoffs',
    tools: handoffs.tools,
    afterActing: (calls, results, state) => handoffs.finalStep(calls, results, state.transcript),
  };
}
