import { createMsg, type Msg } from '@rxagent/core';
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
  // Index loops rather than filter/flatMap chains or for…of: this runs after every tool
  // batch, over frozen arrays, on which V8's iterator leaves its fast path.
  let denied = false;
  let counted = 0;
  let failed = 0;
  for (let i = 0; i < results.length; i++) {
    const msg = results[i]!;
    if (msg.metadata['resultKind'] === 'denied') {
      denied = true;
      continue;
    }
    for (let j = 0; j < msg.content.length; j++) {
      const block = msg.content[j]!;
      if (block.type !== 'tool_result' || state.uncountedTools.has(block.name)) continue;
      counted++;
      if (block.isError === true) failed++;
    }
  }
  if (denied) state.toolFailureStreak = 0;
  if (counted > 0) state.toolFailureStreak = failed === counted ? state.toolFailureStreak + 1 : 0;
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
