import type { JsonObject } from '@rxagent/core';
import type { NextStep } from '../memory/agentLongTermMemory.js';
import type { ReActCallState } from './reactCallState.js';
import { ReActCheckpoints } from './reactCheckpoints.js';
import { stepObservable } from './reactLoop.js';
import type { Step } from './step.js';

/**
 * The steps of a durable call (`context.durable`): `next` with a checkpoint after each step,
 * the checkpoints also set as `state.checkpoints` (around each tool). `resumed`: the progress
 * a recovered call resumes from. Any other call gets `next` itself, and no checkpoints.
 */
export function durableSteps(
  state: ReActCallState,
  first: Step,
  resumed: JsonObject | undefined,
  next: NextStep,
): NextStep {
  if (!state.context.durable) return next;
  const checkpoints = new ReActCheckpoints(state, first, resumed);
  state.checkpoints = checkpoints;
  return (step) => checkpoints.afterStep(stepObservable(next(step)));
}
