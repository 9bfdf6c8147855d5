import Decimal from 'decimal.js';

// Enough digits that sums, products and whole powers of anything a person types stay exact;
// only endless quotients (1/3) and giant powers reach the limit, and those are shown rounded.
const Exact = Decimal.clone({ precision: 1000, rounding: Decimal.ROUND_HALF_EVEN });

export class CalculationError extends Error {}

const operators: Record<string, string> = { '×': '*', x: '*', X: '*', '÷': '/', '−': '-', ':': '/' };

/**
 * Exact arithmetic over decimals: + − × ÷ ^ % (remainder), parentheses, unary minus.
 * A hand-written recursive-descent parser: nothing the user types is ever evaluated as code.
 */
export function calculate(input: string): Decimal {
  const text = input.trim().replace(/=\s*$/, '');
  let position = 0;

  const peek = () => {
    while (/\s/.test(text[position] ?? '')) position += 1;
    const char = text[position];
    return char === undefined ? undefined : (operators[char] ?? char);
  };
  const fail = (message: string): never => {
    throw new CalculationError(message);
  };
  const unexpected = (): never => {
    const char = text[position];
    return char === undefined
      ? fail('The expression ends too early.')
      : fail(`Unexpected "${char}" at position ${position + 1}.`);
  };

  const number = (): Decimal => {
    const match = /^\d+(\.\d+)?|^\.\d+/.exec(text.slice(position));
    if (!match) return unexpected();
    position += match[0].length;
    return new Exact(match[0]);
  };
  const primary = (): Decimal => {
    if (peek() === '(') {
      position += 1;
      const value = expression();
      if (peek() !== ')') return peek() === undefined ? fail('A ")" is missing.') : unexpected();
      position += 1;
      return value;
    }
    return number();
  };
  const power = (): Decimal => {
    const base = primary();
    if (peek() !== '^') return base;
    position += 1;
    const exponent = unary();
    if (!exponent.isInteger() || exponent.abs().greaterThan(1000))
      fail('Exponents must be whole numbers from -1000 to 1000.');
    if (base.isZero() && exponent.isNegative()) fail('Division by zero.');
    const value = base.pow(exponent);
    if (!value.isFinite()) fail('The result is too large.');
    if (value.isZero() && !base.isZero()) fail('The result is too small.');
    return value;
  };
  const unary = (): Decimal => {
    const sign = peek();
    if (sign === '-' || sign === '+') {
      position += 1;
      const value = unary();
      return sign === '-' ? value.negated() : value;
    }
    return power();
  };
  const term = (): Decimal => {
    let value = unary();
    for (let op = peek(); op === '*' || op === '/' || op === '%'; op = peek()) {
      position += 1;
      const right = unary();
      if ((op === '/' || op === '%') && right.isZero()) fail('Division by zero.');
      value = op === '*' ? value.times(right) : op === '/' ? value.dividedBy(right) : value.modulo(right);
    }
    return value;
  };
  function expression(): Decimal {
    let value = term();
    for (let op = peek(); op === '+' || op === '-'; op = peek()) {
      position += 1;
      value = op === '+' ? value.plus(term()) : value.minus(term());
    }
    return value;
  }

  if (!text) fail('Type an expression, for example (1.5 + 2) × 4.');
  const result = expression();
  if (peek() !== undefined) unexpected();
  return result;
}

/** Digits shown unless all of them are asked for. */
const shownDigits = 15;
/** An endless result (1/3) asked for exactly: this many digits, then an ellipsis. */
const endlessDigits = 40;

/**
 * A result for display: up to 15 significant digits, marked ≈ when rounded; asked `exact`, every
 * digit of a result that ends, or the first 40 of one that does not, followed by an ellipsis.
 */
export function formatResult(result: Decimal, exact = false): { sign: '=' | '≈'; digits: string } {
  if (!exact) {
    return result.sd() <= shownDigits
      ? { sign: '=', digits: result.toString() }
      : { sign: '≈', digits: result.toSignificantDigits(shownDigits).toString() };
  }
  return result.sd() < Exact.precision
    ? { sign: '=', digits: result.toFixed() }
    : { sign: '=', digits: `${result.toSignificantDigits(endlessDigits).toFixed()}…` };
}

const exactRequest = /^\s*exact(?:ly)?\s*:?\s*/i;

/** The calculator bot's answer: the result, or what is wrong with the expression. */
export function calculatorReply(input: string): string {
  const exact = exactRequest.test(input);
  const expression = input.replace(exactRequest, '').trim().replace(/=\s*$/, '').trim();
  try {
    const { sign, digits } = formatResult(calculate(expression), exact);
    const answer = `\`${expression}\` ${sign} **${digits}**`;
    return sign === '≈'
      ? `${answer}\n\n*Rounded to ${shownDigits} digits: write “exact ${expression}” for all of them.*`
      : answer;
  } catch (error) {
    if (error instanceof CalculationError) return `I can't calculate that: ${error.message}`;
    throw error;
  }
}
