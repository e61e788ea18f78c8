import type { AgentPart } from '../parts/agentPart.js';
import { type ApprovalRule, checkApprovalRules } from './approvalRules.js';

/**
 * The `approvalRules` option as a part: each call's state gets the checked rules (the
 * approval step asks them, first match decides). None without rules.
 */
export function approvalRulesPart(
  agentName: string,
  option: readonly ApprovalRule[] | undefined,
): AgentPart | undefined {
  const rules = checkApprovalRules(agentName, option);
  if (rules.length === 0) return undefined;
  return {
    name: 'approvalRules',
    startCall: (state) => {
      state.approvalRules = rules;
    },
  };
}
