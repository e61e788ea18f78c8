import { checkOptions } from '@rxagent/core';
import type { EvalCase } from '../evalCase.js';
import type { Scorer } from '../scorer.js';
import type { TraceEntry } from '../trace/traceEntry.js';

/** Options of `toolTrajectory`. */
export interface ToolTrajectoryOptions {
  /**
   * `'strict'` (default): the agent's tool calls, in order, are exactly `names`.
   * `'any'`: every name of `names` was called (as often as it is listed), in any order;
   * other calls are allowed.
   */
  readonly order?: 'strict' | 'any';
}

/** The names of the tools the agent asked for, in order (every model reply of the trace). */
export function toolCallNames(trace: readonly TraceEntry[]): string[] {
  const names: string[] = [];
  for (const { event } of trace) {
    if (event.type !== 'postReasoning') continue;
    for (const block of event.reply.content) if (block.type === 'tool_use') names.push(block.name);
  }
  return names;
}

/**
 * Scores the tools the agent called against `names` (or the names a function of the case
 * returns). Strict: 1 when the calls are exactly `names` in order, else the share of
 * positions that agree (over the longer of the two lists). Any order: the share of
 * `names` that were called; 1 when all were. The reason shows the calls made.
 */
export function toolTrajectory(
  names: readonly string[] | ((testCase: EvalCase) => readonly string[]),
  options: ToolTrajectoryOptions = {},
): Scorer {
  checkOptions(options, ['order'], 'toolTrajectory');
  const order = options.order ?? 'strict';
  if (order !== 'strict' && order !== 'any') {
    throw new TypeError(`toolTrajectory: order must be "strict" or "any", not ${String(order)}.`);
  }
  return {
    name: 'toolTrajectory',
    score: (testCase, _reply, trace) => {
      const expected = typeof names === 'function' ? names(testCase) : names;
      const actual = toolCallNames(trace);
      const score = order === 'strict' ? inOrder(expected, actual) : anyOrder(expected, actual);
      return { score, reason: `called [${actual.join(', ')}], expected [${expected.join(', ')}]` };
    },
  };
}

function inOrder(expected: readonly string[], actual: readonly string[]): number {
  const length = Math.max(expected.length, actual.length);
  if (length === 0) return 1;
  let agree = 0;
  for (let i = 0; i < length; i++) if (expected[i] === actual[i]) agree++;
  return agree / length;
}

function anyOrder(expected: readonly string[], actual: readonly string[]): number {
  if (expected.length === 0) return 1;
  const left = [...actual];
  let found = 0;
  for (const name of expected) {
    const at = left.indexOf(name);
    if (at === -1) continue;
    left.splice(at, 1);
    found++;
  }
  return found / expected.length;
}
