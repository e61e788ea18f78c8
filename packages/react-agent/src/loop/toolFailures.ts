import { createMsg, type Msg, toolResults } from '@rxagent/core';
import { summaryInstruction } from '../reasoning/summaryStep.js';
import type { ReActCallState } from './reactCallState.js';

/**
 * Counts a finished tool batch towards `maxToolFailures`: a batch whose results are all
 * errors extends the streak; any other, and any batch with a denial (a decision, not a
 * failure), resets it. Results of `state.uncountedTools` are left out (a batch of only
 * those changes nothing).
 * Returns whether the streak reached the bound, so the loop should stop.
 */
export function recordToolFailures(state: ReActCallState, results: readonly Msg[]): boolean {
  if (results.some((msg) => msg.metadata['resultKind'] === 'denied')) state.toolFailureStreak = 0;
  const counted = results
    .filter((msg) => msg.metadata['resultKind'] !== 'denied')
    .flatMap(toolResults)
    .filter((result) => !state.uncountedTools.has(result.name));
  if (counted.length > 0) {
    const failed = counted.every((result) => result.isError === true);
    state.toolFailureStreak = failed ? state.toolFailureStreak + 1 : 0;
  }
  return state.toolFailureStreak >= state.maxToolFailures;
}

/** The framework's request for a final answer after too many failing tool rounds. */
export function toolFailuresInstruction(failures: number): Msg {
  return createMsg({
    name: 'system',
    role: 'user',
    content: `Your tool calls failed in ${failures} reasoning steps in a row, so no more tools can be called. Using what you have found so far, give your best final answer now and say plainly what failed and what remains unfinished.`,
    metadata: { systemFeedback: true, feedback: 'tool_failures' },
  });
}

/** The instruction of the summary step that ends a call for `reason`. */
export function summaryInstructionFor(
  state: ReActCallState,
  reason: 'max_iterations' | 'tool_failures',
): Msg {
  return reason === 'tool_failures'
    ? toolFailuresInstruction(state.toolFailureStreak)
    : summaryInstruction(state.maxIters);
}
