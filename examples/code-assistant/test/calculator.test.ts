import { describe, expect, it } from 'vitest';
import { CalculatorError, evaluate } from '../src/calculator.js';

describe('evaluate', () => {
  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['(10 + 4) * 4 / 2', 28],
    ['8 / 4 / 2', 1],
    ['10 - 4 - 3', 3],
    ['-3 + 5', 2],
    ['-(2 + 3) * -2', 10],
    ['--4', 4],
    ['1.5 * .5', 0.75],
    ['(12 + 4) × 4 ÷ 2', 32],
  ])('evaluates %s to %d', (expression, value) => {
    expect(evaluate(expression)).toBeCloseTo(value, 12);
  });

  it.each([
    ['process.exit(1)', 'Unexpected "p" at column 1.'],
    ['1 +', 'Unexpected end of expression.'],
    ['(1 + 2', 'Missing ")" for "(" at column 1.'],
    ['1 2', 'Unexpected "2" at column 3.'],
    ['4 / (2 - 2)', 'Division by zero at column 3.'],
    [')', 'Unexpected ")" at column 1.'],
  ])('rejects %s with a clear error', (expression, message) => {
    expect(() => evaluate(expression)).toThrow(CalculatorError);
    expect(() => evaluate(expression)).toThrow(message);
  });

  it('reports the column of the problem', () => {
    try {
      evaluate('1 + $');
      expect.unreachable();
    } catch (error) {
      expect((error as CalculatorError).position).toBe(4);
    }
  });
});
