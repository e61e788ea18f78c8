import { createMsg, type Msg } from '@rxagent/core';
import type { FinalAnswerDecision } from '../loop/step.js';
import type { PlanNotebook } from './planNotebook.js';

/**
 * The reminder sent after a final answer while subtasks of the plan are open: framework
 * feedback (a user-role Msg named `system`, `metadata.feedback: 'open_plan'`), stored like
 * the empty-answer reminder.
 */
export function openPlanReminder(open: readonly number[]): Msg {
  const which =
    open.length === 1
      ? `subtask ${open[0]} of your plan is`
      : `subtasks ${open.join(', ')} of your plan are`;
  return createMsg({
    name: 'system',
    role: 'user',
    content: `You answered while ${which} still open. Finish them, or mark each done or abandoned with update_subtask (or call finish_plan), then give your final answer.`,
    metadata: { systemFeedback: true, feedback: 'open_plan' },
  });
}

/**
 * The decision about a final answer while the plan has open subtasks, or `undefined` when
 * it has none (or there is no plan). Only the first such answer of a call gets the
 * reminder (its draft is kept in memory, so the model sees what it said); a later one is
 * accepted as it is.
 */
export function openPlanDecision(
  state: { planReminded: boolean },
  notebook: PlanNotebook | undefined,
): FinalAnswerDecision | undefined {
  if (notebook === undefined || state.planReminded) return undefined;
  const open = notebook.openSubtasks();
  if (open.length === 0) return undefined;
  state.planReminded = true;
  return { accept: false, keepDraft: true, feedback: [openPlanReminder(open)] };
}
