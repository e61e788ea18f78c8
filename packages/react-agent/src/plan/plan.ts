import { isJsonObject, type JsonObject, StateError } from '@rxagent/core';

/** Where a subtask of a plan stands. */
export type SubtaskState = 'todo' | 'in_progress' | 'done' | 'abandoned';

/** The states a subtask can have, in the order the tools list them. */
export const SUBTASK_STATES: readonly SubtaskState[] = ['todo', 'in_progress', 'done', 'abandoned'];

/** One step of a plan. */
export interface Subtask {
  readonly description: string;
  readonly state: SubtaskState;
  /** What came of it, as the model reported with `update_subtask`. */
  readonly outcome?: string;
}

/** A plan the model made with `create_plan` (`reply.metadata.plan`). */
export interface Plan {
  readonly subtasks: readonly Subtask[];
  /** Whether `finish_plan` closed it (then it is no longer shown to the model). */
  readonly finished: boolean;
}

/** Whether a subtask still needs work (`todo` or `in_progress`). */
export function isOpen(subtask: Subtask): boolean {
  return subtask.state === 'todo' || subtask.state === 'in_progress';
}

/** The plan as the model reads it: one line per subtask, `<index>. [<state>] <description>`. */
export function planText(plan: Plan): string {
  return plan.subtasks
    .map((subtask, index) => {
      const outcome = subtask.outcome === undefined ? '' : ` — outcome: ${subtask.outcome}`;
      return `${index}. [${subtask.state}] ${subtask.description}${outcome}`;
    })
    .join('\n');
}

/** `plan` as JSON (for state and reply metadata). */
export function planJson(plan: Plan): JsonObject {
  return {
    subtasks: plan.subtasks.map((subtask) => ({ ...subtask })),
    finished: plan.finished,
  };
}

/** Reads a plan saved by `planJson`; throws a `StateError` naming the bad path. */
export function readPlan(json: unknown, path: string): Plan {
  if (!isJsonObject(json) || !Array.isArray(json['subtasks']))
    throw new StateError(`${path} must be an object { subtasks: [...], finished }.`, path);
  if (typeof json['finished'] !== 'boolean')
    throw new StateError(`${path}.finished must be a boolean.`, `${path}.finished`);
  const subtasks = json['subtasks'].map((value, index): Subtask => {
    const where = `${path}.subtasks.${index}`;
    if (!isJsonObject(value) || typeof value['description'] !== 'string')
      throw new StateError(`${where} must be an object with a string description.`, where);
    const state = value['state'];
    if (!SUBTASK_STATES.includes(state as SubtaskState))
      throw new StateError(
        `${where}.state must be one of ${SUBTASK_STATES.join(', ')}.`,
        `${where}.state`,
      );
    const outcome = value['outcome'];
    if (outcome !== undefined && typeof outcome !== 'string')
      throw new StateError(`${where}.outcome must be a string.`, `${where}.outcome`);
    return {
      description: value['description'],
      state: state as SubtaskState,
      ...(outcome !== undefined && { outcome }),
    };
  });
  return { subtasks, finished: json['finished'] };
}
