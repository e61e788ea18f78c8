import { createMsg, type JsonObject, type Msg, StateError, type StateModule } from '@rxagent/core';
import {
  isOpen,
  type Plan,
  planJson,
  planText,
  readPlan,
  type Subtask,
  type SubtaskState,
} from './plan.js';

/**
 * The plan of a ReActAgent with `plan: true` (after AgentScope's PlanNotebook): at most one
 * plan, made, updated and finished by the model through the plan tools (`planTools`). Part
 * of the agent's state (`stateDict().plan`), outside memory. `version` counts changes, so a
 * call can tell whether it touched the plan.
 */
export class PlanNotebook implements StateModule {
  #plan: Plan | undefined;
  #version = 0;

  /** The current plan (open or finished), if one was made. */
  get plan(): Plan | undefined {
    return this.#plan;
  }

  /** Changes so far (each create, update and finish adds one). */
  get version(): number {
    return this.#version;
  }

  /** The plan while it is not finished. */
  get open(): Plan | undefined {
    return this.#plan?.finished === false ? this.#plan : undefined;
  }

  /** The indexes of the open plan's subtasks still `todo` or `in_progress`. */
  openSubtasks(): number[] {
    const plan = this.open;
    if (!plan) return [];
    return plan.subtasks.flatMap((subtask, index) => (isOpen(subtask) ? [index] : []));
  }

  /** Makes a new plan of `descriptions`, all `todo`, replacing any plan. */
  create(descriptions: readonly string[]): Plan {
    this.#set({
      subtasks: descriptions.map((description) => ({ description, state: 'todo' })),
      finished: false,
    });
    return this.#plan!;
  }

  /** Sets subtask `index` of the open plan to `state` (with `outcome`, when given). */
  update(index: number, state: SubtaskState, outcome?: string): Plan {
    const plan = this.#requireOpen();
    const count = plan.subtasks.length;
    if (!Number.isInteger(index) || index < 0 || index >= count)
      throw new Error(
        `index ${index} is out of range: the plan's subtasks are numbered 0 to ${count - 1}.`,
      );
    const subtasks = plan.subtasks.map(
      (subtask, i): Subtask =>
        i === index
          ? { description: subtask.description, state, ...(outcome !== undefined && { outcome }) }
          : subtask,
    );
    this.#set({ subtasks, finished: false });
    return this.#plan!;
  }

  /** Finishes the open plan; its subtasks still open become `abandoned`. */
  finish(): Plan {
    const plan = this.#requireOpen();
    const subtasks = plan.subtasks.map(
      (subtask): Subtask => (isOpen(subtask) ? { ...subtask, state: 'abandoned' } : subtask),
    );
    this.#set({ subtasks, finished: true });
    return this.#plan!;
  }

  /**
   * What the model is shown before a reasoning step while a plan is open: a user-role Msg
   * named `system` (`metadata.feedback: 'plan'`), sent with the request and never stored.
   */
  hint(): Msg | undefined {
    const plan = this.open;
    if (!plan) return undefined;
    return createMsg({
      name: 'system',
      role: 'user',
      content: `Your current plan (update it with update_subtask as you work; call finish_plan when it is done):\n${planText(plan)}`,
      metadata: { systemFeedback: true, feedback: 'plan' },
    });
  }

  stateDict(): JsonObject {
    return { plan: this.#plan ? planJson(this.#plan) : null };
  }

  loadStateDict(state: JsonObject): void {
    const value = state['plan'];
    if (value === undefined)
      throw new StateError('plan state must have a "plan" key (a plan or null).', 'plan');
    const plan = value === null ? undefined : readPlan(value, 'plan.plan');
    this.#plan = plan;
    this.#version++;
  }

  #set(plan: Plan): void {
    this.#plan = plan;
    this.#version++;
  }

  #requireOpen(): Plan {
    const plan = this.open;
    if (!plan) throw new Error('there is no open plan; make one with create_plan first.');
    return plan;
  }
}
