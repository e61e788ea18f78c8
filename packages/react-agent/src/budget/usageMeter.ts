import {
  addUsage,
  type Budget,
  type BudgetSpent,
  budgetLeft,
  type CallContext,
  costOf,
  isJsonObject,
  isUsageByAgent,
  type JsonObject,
  type ModelPricing,
  type ToolUsageReport,
  type Usage,
  type UsageByAgent,
} from '@rxagent/core';

/**
 * The spending of one ReActAgent call: every model request's usage and every sub-agent's
 * reported usage go through it into the call's `usage` (and `usageByAgent`), priced with the
 * budget's `pricing` (usage of a model without a price at the agent's model's price), and it
 * tells whether the call's budget is spent before each model request.
 */
export class UsageMeter {
  /** Dollars spent so far (sub-agents included), when the budget has `pricing`. */
  costUsd = 0;
  #own: Usage | undefined;
  #others: Record<string, Usage> | undefined;

  /**
   * `budget`: the call's (its own, or the agent's); `modelName`: the agent's model, whose
   * price stands for models without one.
   */
  constructor(
    readonly context: CallContext,
    readonly budget: Budget | undefined,
    readonly modelName: string,
  ) {}

  /** Counts one model request of the agent's own (`model`: the model that answered). */
  addRequest(usage: Usage | undefined, model?: string): void {
    if (usage === undefined) return;
    this.#own = addUsage(this.#own, usage);
    this.context.addUsage(usage);
    this.#price(usage, model);
  }

  /** Counts what a sub-agent spent inside a tool run (see `ToolExecutionContext.reportUsage`). */
  readonly report = (report: ToolUsageReport): void => {
    const byAgent = report.usageByAgent ?? (report.usage && { [report.agent]: report.usage });
    if (byAgent === undefined) return;
    for (const [name, usage] of Object.entries(byAgent)) this.#addOther(name, usage);
    if (report.costUsd !== undefined) this.costUsd += report.costUsd;
    else if (report.usage !== undefined) this.#price(report.usage, undefined);
  };

  /** What the budget has left now (passed to a tool run, for its sub-agent), if there is a budget. */
  remaining(): Budget | undefined {
    const budget = this.budget;
    return budget === undefined ? undefined : budgetLeft(budget, this.usedTokens, this.costUsd);
  }

  /** Tokens used so far (sub-agents included). */
  get usedTokens(): number {
    return this.context.usage?.totalTokens ?? 0;
  }

  /** Which limit is reached, if one is: no model request may be made then. */
  spent(): BudgetSpent | undefined {
    const budget = this.budget;
    if (budget === undefined) return undefined;
    const { maxTokens, maxCostUsd } = budget;
    const usedTokens = this.usedTokens;
    const priced = budget.pricing !== undefined;
    const report = (limit: BudgetSpent['limit']): BudgetSpent => ({
      limit,
      usedTokens,
      ...(maxTokens !== undefined && { maxTokens }),
      ...(priced && { costUsd: roundUsd(this.costUsd) }),
      ...(maxCostUsd !== undefined && { maxCostUsd }),
    });
    if (maxTokens !== undefined && usedTokens >= maxTokens) return report('maxTokens');
    if (maxCostUsd !== undefined && this.costUsd >= maxCostUsd) return report('maxCostUsd');
    return undefined;
  }

  /** The reply metadata of the meter: `costUsd` when the budget has `pricing`. */
  metadata(): JsonObject {
    return this.budget?.pricing === undefined ? {} : { costUsd: roundUsd(this.costUsd) };
  }

  /** The meter as JSON, for a durable call's checkpoint. */
  toJson(): JsonObject {
    const json: JsonObject = { costUsd: this.costUsd };
    if (this.#own) json['own'] = { ...this.#own };
    if (this.#others) json['others'] = this.#others as unknown as JsonObject;
    return json;
  }

  /** Counts again what a crashed process spent, from `toJson()` in its last checkpoint. */
  restore(json: unknown): void {
    if (!isJsonObject(json)) return;
    const { own, others, costUsd } = json;
    if (isUsageByAgent({ own })) {
      this.#own = addUsage(this.#own, own as unknown as Usage);
      this.context.addUsage(own as unknown as Usage);
    }
    if (isUsageByAgent(others))
      for (const [name, usage] of Object.entries(others as UsageByAgent))
        this.#addOther(name, usage);
    if (typeof costUsd === 'number') this.costUsd += costUsd;
  }

  #addOther(name: string, usage: Usage): void {
    this.#others ??= {};
    this.#others[name] = addUsage(this.#others[name], usage)!;
    this.context.addUsage(usage, name);
  }

  #price(usage: Usage, model: string | undefined): void {
    const pricing = this.budget?.pricing;
    if (pricing === undefined) return;
    const price: ModelPricing | undefined =
      (model !== undefined ? pricing[model] : undefined) ?? pricing[this.modelName];
    if (price !== undefined) this.costUsd += costOf(usage, price);
  }
}

/** Dollars rounded to a millionth of a cent, so sums of prices read cleanly. */
function roundUsd(usd: number): number {
  return Math.round(usd * 1e8) / 1e8;
}

/** The text of the reply of a call whose budget is spent. */
export function budgetSpentText(agentName: string, spent: BudgetSpent): string {
  const used =
    spent.limit === 'maxTokens'
      ? `${spent.usedTokens} tokens used of maxTokens ${spent.maxTokens}`
      : `$${spent.costUsd} spent of maxCostUsd $${spent.maxCostUsd} (${spent.usedTokens} tokens)`;
  return `[budget] ${agentName} stopped: the budget of this call is spent (${used}), so no further model request was made.`;
}
