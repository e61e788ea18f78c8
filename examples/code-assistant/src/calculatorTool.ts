import { tool } from '@rxagent/core';
import { z } from 'zod';
import { evaluate } from './calculator.js';

/**
 * `calculator`: evaluates an arithmetic expression with the safe parser of `calculator.ts`.
 * A bad expression throws, which the toolkit turns into an error result the model can read
 * and correct.
 */
export const calculatorTool = tool({
  name: 'calculator',
  description:
    'Evaluates an arithmetic expression exactly: + - * / and parentheses, e.g. "(12 + 4) * 4 / 2". Use it for every computation.',
  parameters: z.object({ expression: z.string().min(1) }),
  // Rounding to 12 significant digits hides binary float noise (0.1 + 0.2) without hiding real digits.
  execute: ({ expression }) => `${expression} = ${Number(evaluate(expression).toPrecision(12))}`,
});
