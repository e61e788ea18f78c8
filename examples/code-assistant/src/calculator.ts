/**
 * A safe arithmetic evaluator: its own tokenizer and recursive-descent parser over
 * `+ - * /`, parentheses, unary minus and decimals. Nothing is ever passed to `eval` or
 * `Function`, so a model-supplied expression can compute but never run code.
 *
 *   expression := term (('+' | '-') term)*
 *   term       := unary (('*' | '/') unary)*
 *   unary      := ('-' | '+') unary | primary
 *   primary    := number | '(' expression ')'
 */

/** An expression the calculator cannot evaluate; `position` is the 0-based offending column. */
export class CalculatorError extends Error {
  override readonly name = 'CalculatorError';
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
  }
}

type Token =
  | { readonly kind: 'number'; readonly value: number; readonly at: number }
  | { readonly kind: 'op'; readonly op: '+' | '-' | '*' | '/' | '(' | ')'; readonly at: number };

/** Models often write × and ÷; accepting them costs nothing and saves a failed round trip. */
const ALIASES: Readonly<Record<string, string>> = { '×': '*', '÷': '/' };
const MAX_LENGTH = 500;

/** Splits `source` into numbers and operators, rejecting anything else with its position. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < source.length) {
    const char = ALIASES[source[at]!] ?? source[at]!;
    if (/\s/.test(char)) {
      at++;
    } else if ('+-*/()'.includes(char)) {
      tokens.push({ kind: 'op', op: char as '+', at });
      at++;
    } else {
      const number = /^(\d+(\.\d+)?|\.\d+)/.exec(source.slice(at));
      if (number === null)
        throw new CalculatorError(`Unexpected "${char}" at column ${at + 1}.`, at);
      tokens.push({ kind: 'number', value: Number(number[0]), at });
      at += number[0].length;
    }
  }
  return tokens;
}

/** Evaluates `source`; throws `CalculatorError` naming the problem and where it is. */
export function evaluate(source: string): number {
  if (source.length > MAX_LENGTH) {
    throw new CalculatorError(`Expression too long (over ${MAX_LENGTH} characters).`, MAX_LENGTH);
  }
  const tokens = tokenize(source);
  let index = 0;
  const peek = (): Token | undefined => tokens[index];
  const isOp = (
    token: Token | undefined,
    ...ops: string[]
  ): token is Extract<Token, { kind: 'op' }> => token?.kind === 'op' && ops.includes(token.op);

  const expression = (): number => {
    let value = term();
    for (let token = peek(); isOp(token, '+', '-'); token = peek()) {
      index++;
      value = token.op === '+' ? value + term() : value - term();
    }
    return value;
  };
  const term = (): number => {
    let value = unary();
    for (let token = peek(); isOp(token, '*', '/'); token = peek()) {
      index++;
      const right = unary();
      if (token.op === '/' && right === 0) {
        throw new CalculatorError(`Division by zero at column ${token.at + 1}.`, token.at);
      }
      value = token.op === '*' ? value * right : value / right;
    }
    return value;
  };
  const unary = (): number => {
    const token = peek();
    if (isOp(token, '-', '+')) {
      index++;
      return token.op === '-' ? -unary() : unary();
    }
    return primary();
  };
  const primary = (): number => {
    const token = peek();
    if (token === undefined)
      throw new CalculatorError('Unexpected end of expression.', source.length);
    index++;
    if (token.kind === 'number') return token.value;
    if (token.op === '(') {
      const value = expression();
      const close = peek();
      if (!isOp(close, ')')) {
        throw new CalculatorError(
          `Missing ")" for "(" at column ${token.at + 1}.`,
          close?.at ?? source.length,
        );
      }
      index++;
      return value;
    }
    throw new CalculatorError(`Unexpected "${token.op}" at column ${token.at + 1}.`, token.at);
  };

  const value = expression();
  const rest = peek();
  if (rest !== undefined) {
    const what = rest.kind === 'number' ? String(rest.value) : rest.op;
    throw new CalculatorError(`Unexpected "${what}" at column ${rest.at + 1}.`, rest.at);
  }
  return value;
}
