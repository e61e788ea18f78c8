import { InvalidArgumentError, type JsonObject } from '@rxagent/core';
import type { ReActCallState } from '../loop/reactCallState.js';
import type { AgentPart } from '../parts/agentPart.js';
import { openPlanDecision } from './openPlanReminder.js';
import { planJson } from './plan.js';
import { PlanNotebook } from './planNotebook.js';
import { planTools } from './planTools.js';

/** The plan notebook of `new ReActAgent(options)` with `plan: true`; checks the option. */
export function planNotebook(options: {
  readonly name: string;
  readonly plan?: boolean | undefined;
}): PlanNotebook | undefined {
  const { plan } = options;
  if (plan !== undefined && typeof plan !== 'boolean')
    throw new InvalidArgumentError(
      `ReActAgent "${options.name}": plan must be a boolean, got ${typeof plan}.`,
    );
  return plan === true ? new PlanNotebook() : undefined;
}

/**
 * The `plan` option as a part: the plan tools, the notebook in the agent's state, the open
 * plan sent last with each request, one reminder for a final answer while subtasks are open,
 * and `metadata.plan` on the reply. None without a notebook.
 */
export function planPart(notebook: PlanNotebook | undefined): AgentPart | undefined {
  if (notebook === undefined) return undefined;
  return {
    name: 'plan',
    tools: planTools(notebook),
    state: { key: 'plan', module: notebook },
    startCall: (state) => {
      state.planVersion = notebook.version;
    },
    requestHint: () => notebook.hint(),
    finalAnswer: (_reply, state) => openPlanDecision(state, notebook),
    replyMetadata: (state) => planMetadata(notebook, state),
  };
}

/** `metadata.plan`: the plan with its states, when it is open or the call changed it. */
function planMetadata(notebook: PlanNotebook, state: ReActCallState): JsonObject | undefined {
  const plan = notebook.plan;
  if (plan === undefined || (plan.finished && notebook.version === state.planVersion))
    return undefined;
  return { plan: planJson(plan) };
}
