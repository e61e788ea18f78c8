import type { CallInput } from '../agent/callOptions.js';
import { checkTap, type TapCallOptions } from '../agent/eventTap.js';
import { checkBudget } from '../budget/budget.js';
import { InvalidArgumentError, UnsupportedStructuredOutputError } from '../errors.js';
import { isJsonObject, jsonProblem } from '../json.js';
import { freezeMsg } from '../message/freezeMsg.js';
import { type Msg, userMsg } from '../message/msg.js';
import { checkOptions, optionNames } from '../options/checkOptions.js';

const CALL_OPTION_KEYS = optionNames<TapCallOptions>({
  signal: true,
  structuredOutput: true,
  maxIters: true,
  budget: true,
  callContext: true,
  caller: true,
  journal: true,
  tap: true,
});

/**
 * `call()`/`observe()` input as an array, each element checked to be a Msg and frozen in place
 * (a no-op for a factory-made one): a Msg built by hand is frozen as it enters an agent.
 */
export function normalizeInput(input: Msg | readonly Msg[] | undefined, method: string): Msg[] {
  if (input === undefined || input === null) return [];
  const msgs = Array.isArray(input) ? [...(input as readonly Msg[])] : [input as Msg];
  msgs.forEach((msg, index) => {
    if (
      typeof msg !== 'object' ||
      msg === null ||
      typeof msg.role !== 'string' ||
      !Array.isArray(msg.content)
    ) {
      throw new InvalidArgumentError(
        `${method}: input[${index}] is not a Msg (expected { id, name, role, content: [...] }); create messages with userMsg(), assistantMsg() or createMsg().`,
      );
    }
    freezeMsg(msg);
  });
  return msgs;
}

/**
 * The input of `agent.call()` as an array of Msgs (a string is one user message); throws `UnsupportedStructuredOutputError`
 * when structured output is asked of an agent without it, `InvalidArgumentError` for input
 * that is not a Msg, a TypeError for an unknown key of `options`.
 */
export function callInput(
  agent: { readonly name: string; readonly constructor: { readonly name: string } },
  input: CallInput | undefined,
  options: TapCallOptions,
  supportsStructuredOutput: boolean,
): Msg[] {
  checkOptions(options, CALL_OPTION_KEYS, `${agent.name}.call()`);
  if (options.budget !== undefined) checkBudget(`${agent.name}.call()`, options.budget);
  checkCallContext(`${agent.name}.call()`, options.callContext);
  if (options.tap !== undefined) checkTap(`${agent.name}.call()`, options.tap);
  if (options.structuredOutput !== undefined && !supportsStructuredOutput)
    throw new UnsupportedStructuredOutputError(agent.constructor.name);
  if (typeof input === 'string') return [userMsg(input)];
  return normalizeInput(input, `${agent.name}.call()`);
}

/** Checks a call's `callContext` option: a JSON object; throws `InvalidArgumentError` naming the bad part. */
export function checkCallContext(where: string, value: unknown): void {
  if (value === undefined) return;
  const problem = isJsonObject(value)
    ? jsonProblem(value, 'callContext')
    : `callContext is ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}`;
  if (problem !== undefined)
    throw new InvalidArgumentError(
      `${where}: options.callContext must be a JSON object (who is asking: user, tenant, roles); ${problem}.`,
    );
}
