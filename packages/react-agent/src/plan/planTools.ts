import { type Tool, tool } from '@rxagent/core';
import { z } from 'zod';
import { type Plan, planText, SUBTASK_STATES, type SubtaskState } from './plan.js';
import type { PlanNotebook } from './planNotebook.js';

/** The names of the plan tools. */
export const PLAN_TOOL_NAMES = ['create_plan', 'update_subtask', 'finish_plan'] as const;

/**
 * The tools of a ReActAgent with `plan: true`, over `notebook`: `create_plan({ subtasks })`
 * (replaces any plan), `update_subtask({ index, state, outcome? })` (0-based index) and
 * `finish_plan()`. Each answers with the plan as it now stands; a bad call (no open plan, an
 * index out of range) is an error result naming what was wrong, which the model reads.
 */
export function planTools(notebook: PlanNotebook): Tool[] {
  const createPlan = tool({
    name: 'create_plan',
    description:
      'Makes a plan for a task that needs several steps: a list of subtasks, done in order. Replaces any current plan. Update each subtask with update_subtask as you work, and call finish_plan at the end.',
    parameters: z.object({
      subtasks: z
        .array(z.string().min(1))
        .min(1)
        .describe('The subtasks, in the order they should be done, each a short instruction.'),
    }),
    dedupe: false,
    execute: ({ subtasks }) => {
      const replaced = notebook.open !== undefined;
      const plan = notebook.create(subtasks);
      return `${replaced ? 'Plan replaced' : 'Plan created'}:\n${planText(plan)}`;
    },
  });
  const updateSubtask = tool({
    name: 'update_subtask',
    description:
      'Sets the state of one subtask of the current plan: in_progress when you start it, done (with its outcome) when it is finished, abandoned when it cannot or need not be done.',
    parameters: z.object({
      index: z.number().int().describe('The 0-based index of the subtask in the plan.'),
      state: z.enum(SUBTASK_STATES as [SubtaskState, ...SubtaskState[]]),
      outcome: z.string().optional().describe('What came of the subtask (for done or abandoned).'),
    }),
    dedupe: false,
    execute: ({ index, state, outcome }) => {
      const plan = notebook.update(index, state, outcome);
      return `Subtask ${index} is now ${state}.\n${planText(plan)}${nextHint(plan)}`;
    },
  });
  const finishPlan = tool({
    name: 'finish_plan',
    description:
      'Closes the current plan once its work is done (subtasks still open are marked abandoned). Then give your final answer.',
    parameters: z.object({}),
    dedupe: false,
    execute: () => `Plan finished:\n${planText(notebook.finish())}`,
  });
  return [createPlan, updateSubtask, finishPlan] as unknown as Tool[];
}

function nextHint(plan: Plan): string {
  const open = plan.subtasks.some((s) => s.state === 'todo' || s.state === 'in_progress');
  return open ? '' : '\nEvery subtask is settled: call finish_plan, then answer.';
}
