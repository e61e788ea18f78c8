import {
  type Budget,
  type CallContext,
  checkBudget,
  checkPriced,
  createMsg,
  type JsonObject,
} from '@rxagent/core';
import type { ReActCallState } from '../loop/reactCallState.js';
import type { FinalStep } from '../loop/step.js';
import { storedFinal } from '../loop/storedFinal.js';
import { budgetSpentText } from './usageMeter.js';

/** The checked `budget` option of `new ReActAgent(options)`. */
export function agentBudget(options: {
  readonly name: string;
  readonly budget?: Budget | undefined;
  readonly model: { readonly modelName: string };
}): Budget | undefined {
  if (options.budget === undefined) return undefined;
  const where = `ReActAgent "${options.name}"`;
  const budget = checkBudget(where, options.budget);
  checkPriced(where, budget, options.model.modelName);
  return budget;
}

/**
 * The call's budget: its own (`call(input, { budget })`) or the agent's (`agentBudget`);
 * checked against the model.
 */
export function callBudget(
  agentName: string,
  modelName: string,
  agentBudget: Budget | undefined,
  context: CallContext,
): Budget | undefined {
  const own = context.options.budget;
  if (own === undefined) return agentBudget;
  checkPriced(`${agentName}.call()`, own, modelName);
  return own;
}

/**
 * The final step of a call whose budget is spent (no request is made then), or
 * `undefined`. Memory is valid here: every tool call of the call has its result. The
 * stored reply says which limit was reached and what was used (`metadata.budget`).
 */
export function budgetStop(state: ReActCallState): FinalStep | undefined {
  const spent = state.meter.spent();
  if (spent === undefined) return undefined;
  const reply = createMsg({
    name: state.agentName,
    role: 'assistant',
    content: budgetSpentText(state.agentName, spent),
    metadata: { budget: spent as unknown as JsonObject },
  });
  return storedFinal(state, reply, 'budget');
}
