import { InvalidArgumentError, type ToolUseBlock } from '@rxagent/core';
import type { ReActCallState } from './reactCallState.js';

/** `value` when it is a positive integer (or, with `unbounded`, Infinity); else an `InvalidArgumentError`. */
export function positiveLimit(
  where: string,
  name: string,
  value: number,
  unbounded = false,
): number {
  const ok =
    (Number.isInteger(value) && value >= 1) || (unbounded && value === Number.POSITIVE_INFINITY);
  if (!ok) {
    const what = unbounded ? 'a positive integer or Infinity' : 'a positive integer';
    throw new InvalidArgumentError(`${where}: ${name} must be ${what}, got ${value}.`);
  }
  return value;
}

/** Gives each of `calls` a `[not executed]` result: the call's reasoning-step budget is spent. */
export function closeOverBudget(state: ReActCallState, calls: readonly ToolUseBlock[]): void {
  state.transcript.close(
    calls,
    (call) =>
      `[not executed] Tool "${call.name}" was not run: the agent reached its limit of ${state.maxIters} reasoning steps.`,
    'not_executed',
  );
}

/**
 * The checked limits of `new ReActAgent(options)`: `maxIters` (default 10) and
 * `maxToolFailures` (default 3, or Infinity); also checks that `options.model` is a
 * ChatModel. Throws `InvalidArgumentError` naming the bad option.
 */
export function agentLimits(options: {
  readonly name: string;
  readonly model?: { readonly stream?: unknown };
  readonly maxIters?: number;
  readonly maxToolFailures?: number;
}): { readonly maxIters: number; readonly maxToolFailures: number } {
  const where = `ReActAgent "${options.name}"`;
  if (typeof options.model?.stream !== 'function')
    throw new InvalidArgumentError(`${where}: options.model must be a ChatModel.`);
  return {
    maxIters: positiveLimit(where, 'maxIters', options.maxIters ?? 10),
    maxToolFailures: positiveLimit(where, 'maxToolFailures', options.maxToolFailures ?? 3, true),
  };
}
