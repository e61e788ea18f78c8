import { InvalidArgumentError } from '../errors.js';
import type { Usage } from '../model/chatModel.js';
import { checkOptions, optionNames } from '../options/checkOptions.js';

/** The price of one model, in US dollars per million tokens. */
export interface ModelPricing {
  /** Dollars per million input (prompt) tokens. */
  readonly inputPerMillion: number;
  /** Dollars per million output (completion) tokens. */
  readonly outputPerMillion: number;
}

/**
 * What one call may spend (ReActAgent option `budget`, or `call(input, { budget })`):
 * checked before each model request against the call's usage so far, sub-agents included.
 * JSON-only, so a durable call keeps it in its checkpoint.
 */
export interface Budget {
  /** Total tokens (input + output) the call may use. */
  readonly maxTokens?: number;
  /** Dollars the call may spend, priced with `pricing` (which must price the agent's model). */
  readonly maxCostUsd?: number;
  /** Prices by model name (`ChatModel.modelName`, or the model a response named). */
  readonly pricing?: Readonly<Record<string, ModelPricing>>;
}

const BUDGET_KEYS = optionNames<Budget>({ maxTokens: true, maxCostUsd: true, pricing: true });
const PRICING_KEYS = optionNames<ModelPricing>({ inputPerMillion: true, outputPerMillion: true });

/**
 * `value` checked to be a `Budget`: an object with only the known keys, `maxTokens` a
 * whole number, `maxCostUsd` a finite number, both 0 or more (0: no request may be made), `pricing` an object of
 * `{ inputPerMillion, outputPerMillion }` (non-negative finite numbers). Throws a TypeError
 * for an unknown key and an `InvalidArgumentError` naming the bad field otherwise.
 */
export function checkBudget(where: string, value: unknown): Budget {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InvalidArgumentError(
      `${where}: budget must be an object { maxTokens?, maxCostUsd?, pricing? }.`,
    );
  const budget = value as Budget;
  checkOptions(budget, BUDGET_KEYS, `${where} budget`);
  const { maxTokens, maxCostUsd, pricing } = budget;
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens >= 0))
    throw new InvalidArgumentError(
      `${where}: budget.maxTokens must be a whole number of tokens (0 or more), got ${shown(maxTokens)}.`,
    );
  if (
    maxCostUsd !== undefined &&
    !(typeof maxCostUsd === 'number' && Number.isFinite(maxCostUsd) && maxCostUsd >= 0)
  )
    throw new InvalidArgumentError(
      `${where}: budget.maxCostUsd must be a number of dollars (0 or more), got ${shown(maxCostUsd)}.`,
    );
  if (pricing !== undefined) {
    if (typeof pricing !== 'object' || pricing === null || Array.isArray(pricing))
      throw new InvalidArgumentError(
        `${where}: budget.pricing must be an object { [modelName]: { inputPerMillion, outputPerMillion } }.`,
      );
    for (const [model, price] of Object.entries(pricing)) checkPrice(where, model, price);
  }
  return budget;
}

function checkPrice(where: string, model: string, price: unknown): void {
  const field = `budget.pricing[${JSON.stringify(model)}]`;
  if (typeof price !== 'object' || price === null || Array.isArray(price))
    throw new InvalidArgumentError(
      `${where}: ${field} must be an object { inputPerMillion, outputPerMillion }.`,
    );
  checkOptions(price as ModelPricing, PRICING_KEYS, `${where} ${field}`);
  for (const key of ['inputPerMillion', 'outputPerMillion'] as const) {
    const n = (price as ModelPricing)[key];
    if (!(typeof n === 'number' && Number.isFinite(n) && n >= 0))
      throw new InvalidArgumentError(
        `${where}: ${field}.${key} must be a non-negative number of dollars per million tokens, got ${shown(n)}.`,
      );
  }
}

/**
 * Throws an `InvalidArgumentError` naming `model` when `budget` has a `maxCostUsd` but no
 * price for `model` (the cost of its requests would be unknown).
 */
export function checkPriced(where: string, budget: Budget | undefined, model: string): void {
  if (budget?.maxCostUsd === undefined || budget.pricing?.[model] !== undefined) return;
  const known = Object.keys(budget.pricing ?? {});
  throw new InvalidArgumentError(
    `${where}: budget.maxCostUsd needs a price for the model "${model}" in budget.pricing (priced: ${known.length > 0 ? known.map((m) => `"${m}"`).join(', ') : 'none'}).`,
  );
}

/**
 * What is left of `budget` after `usedTokens` tokens and `costUsd` dollars: each limit less
 * what was used (0 at the least), prices as they are. A sub-agent's or a pipeline hop's call
 * is given it.
 */
export function budgetLeft(budget: Budget, usedTokens: number, costUsd: number): Budget {
  const { maxTokens, maxCostUsd, pricing } = budget;
  return {
    ...(maxTokens !== undefined && { maxTokens: Math.max(0, maxTokens - usedTokens) }),
    ...(maxCostUsd !== undefined && { maxCostUsd: Math.max(0, maxCostUsd - costUsd) }),
    ...(pricing !== undefined && { pricing }),
  };
}

/** The dollars `usage` cost at `price`. */
export function costOf(usage: Usage, price: ModelPricing): number {
  return (
    (usage.inputTokens * price.inputPerMillion + usage.outputTokens * price.outputPerMillion) / 1e6
  );
}

/** Why a call stopped for its budget (`reply.metadata.budget` with `generateReason: 'budget'`). */
export interface BudgetSpent {
  /** The limit that was reached. */
  readonly limit: 'maxTokens' | 'maxCostUsd';
  /** Tokens the call used (sub-agents included). */
  readonly usedTokens: number;
  readonly maxTokens?: number;
  /** Dollars the call spent (sub-agents included), when its budget has `pricing`. */
  readonly costUsd?: number;
  readonly maxCostUsd?: number;
}

/** A bad value as a message shows it: a string quoted (`"100"` is not `100`), else as it prints. */
function shown(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
