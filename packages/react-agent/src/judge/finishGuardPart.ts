import type { AgentBase } from '@rxagent/core';
import type { AgentPart } from '../parts/agentPart.js';
import type { FinishGuard } from './finishGuard.js';
import { runFinishGuard } from './runFinishGuard.js';

/**
 * The `finishGuard` option as a part: it decides about every final answer the parts before
 * it left undecided (a rejected draft is dropped, the feedback stored). None without a guard.
 */
export function finishGuardPart(
  guard: FinishGuard | undefined,
  agent: AgentBase,
): AgentPart | undefined {
  if (guard === undefined) return undefined;
  return {
    name: 'finishGuard',
    finalAnswer: (reply, state) => runFinishGuard(guard, agent, reply, state),
  };
}
