import { InvalidArgumentError } from '@rxagent/core';

/** `value` when it is a finite number > 0; else an `InvalidArgumentError` naming the option. */
export function positive(name: string, value: number): number {
  if (Number.isFinite(value) && value > 0) return value;
  throw new InvalidArgumentError(
    `OpenAIChatModel: ${name} must be a positive number, got ${value}.`,
  );
}

/** `value` when it is a finite number >= 0; else an `InvalidArgumentError` naming the option. */
export function nonNegative(name: string, value: number): number {
  if (Number.isFinite(value) && value >= 0) return value;
  throw new InvalidArgumentError(`OpenAIChatModel: ${name} must be a number >= 0, got ${value}.`);
}

/** `value` when it is an integer >= 0; else an `InvalidArgumentError` naming the option. */
export function nonNegativeInteger(name: string, value: number): number {
  if (Number.isInteger(value) && value >= 0) return value;
  throw new InvalidArgumentError(`OpenAIChatModel: ${name} must be an integer >= 0, got ${value}.`);
}
