import type { Budget } from '../budget/budget.js';
import type { Msg } from '../message/msg.js';
import type { ToolUsageReport } from '../tool/tool.js';
import { replyMetadata } from './replyMetadata.js';

/**
 * The budget of a sub-agent's call: its caller's remaining budget, tightened by the
 * sub-agent's own (`own`, e.g. a ReActAgent's `budget` option): per limit the smaller of
 * the two; prices from both (the sub-agent's own win for a model both price).
 */
export function subAgentBudget(
  remaining: Budget | undefined,
  own: Budget | undefined,
): Budget | undefined {
  if (remaining === undefined) return undefined;
  const out: { -readonly [K in keyof Budget]: Budget[K] } = {};
  const maxTokens = smaller(remaining.maxTokens, own?.maxTokens);
  const maxCostUsd = smaller(remaining.maxCostUsd, own?.maxCostUsd);
  if (maxTokens !== undefined) out.maxTokens = maxTokens;
  if (maxCostUsd !== undefined) out.maxCostUsd = maxCostUsd;
  if (remaining.pricing !== undefined || own?.pricing !== undefined)
    out.pricing = { ...remaining.pricing, ...own?.pricing };
  return out;
}

function smaller(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  return b === undefined ? a : Math.min(a, b);
}

/** What a sub-agent's reply tells its caller about the usage of its call. */
export function usageReportOf(agentName: string, reply: Msg): ToolUsageReport {
  const { usage, usageByAgent, costUsd } = replyMetadata(reply);
  return {
    agent: agentName,
    ...(usage !== undefined && { usage }),
    ...(usageByAgent !== undefined && { usageByAgent }),
    ...(costUsd !== undefined && { costUsd }),
  };
}
