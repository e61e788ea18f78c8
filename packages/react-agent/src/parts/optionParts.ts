import type { AgentBase, CallContext, HookEvent } from '@rxagent/core';
import type { Observable } from 'rxjs';
import { guardrailsPart } from '../guardrails/guardrailsPart.js';
import { finishGuardPart } from '../judge/finishGuardPart.js';
import { approvalRulesPart } from '../loop/approvalRulesPart.js';
import { handoffsPart } from '../loop/handoffsPart.js';
import { longTermMemoryPart } from '../memory/longTermMemoryPart.js';
import { offloadPart } from '../offload/offloadPart.js';
import type { PlanNotebook } from '../plan/planNotebook.js';
import { planPart } from '../plan/planPart.js';
import type { ReActAgentOptions } from '../reactAgentOptions.js';
import { skillsPart } from '../skills/skillsPart.js';
import type { AgentPart } from './agentPart.js';
import { AgentParts } from './agentParts.js';

/** What the parts of a ReActAgent need of it. */
export interface PartHost {
  /** The agent itself (the finish guard's and long-term memory's events name it). */
  readonly agent: AgentBase;
  /** The notebook of `plan: true`, made by the agent (its `plan` getter reads it). */
  readonly plan: PlanNotebook | undefined;
  /** Sends an event through the agent's hooks (its protected `notify`). */
  notify<E extends HookEvent>(event: E): Observable<E>;
  /** The running call's context, if a call is running. */
  running(): CallContext | undefined;
}

/**
 * Turns the options of `new ReActAgent(options)` into its ordered parts (checking each
 * option; an unset one adds none). The order is the order of the tools they add (transfer
 * tools, memory tools, plan tools, skill tools, `read_result`) and of the final-answer
 * deciders (the open plan's reminder before the finish guard).
 */
export function optionParts(options: ReActAgentOptions, host: PartHost): AgentParts {
  const handoffs = handoffsPart(options.name, options.handoffs);
  const approvalRules = approvalRulesPart(options.name, options.approvalRules);
  const guardrails = guardrailsPart(options.name, options.guardrails, () => host.running());
  const skills = skillsPart(options);
  const longTerm = longTermMemoryPart(options, host.agent, (event) => host.notify(event));
  const offload = offloadPart(options);
  const parts = [
    handoffs,
    approvalRules,
    guardrails,
    longTerm,
    planPart(host.plan),
    skills,
    offload,
    finishGuardPart(options.finishGuard, host.agent),
  ];
  const set = parts.filter((part): part is AgentPart => part !== undefined);
  return set.length === 0 ? AgentParts.none : new AgentParts(set);
}
