import Decimal from 'decimal.js';

// Enough digits that sums, products and whole powers of decimals stay exact; only endless quotients
// (1/3) and giant powers reach the limit, and those are shown rounded.
const Exact = Decimal.clone({ precision: 1000, rounding: Decimal.ROUND_HALF_EVEN });

/**
 * A whole number is a BigInt, exact at any size up to this many digits (2^64, 2^100, 3^1000), and a
 * Decimal only once a decimal point or a quotient that does not divide makes it one.
 */
const maxDigits = 10_000;
/** About how many bits `maxDigits` digits take: a power is refused before it is worked out. */
const maxBits = Math.ceil(maxDigits * Math.log2(10));

type Value = bigint | Decimal;

export class CalculationError extends Error {}

const operators: Record<string, string> = { '×': '*', x: '*', X: '*', '÷': '/', '−': '-', ':': '/' };

const fail = (message: string): never => {
  throw new CalculationError(message);
};
const decimal = (value: Value) => (typeof value === 'bigint' ? new Exact(value.toString()) : value);
const isZero = (value: Value) => (typeof value === 'bigint' ? value === 0n : value.isZero());
const bits = (value: bigint) => (value < 0n ? -value : value).toString(2).length;
/** A whole number no longer than `maxDigits`. */
const checked = (value: bigint) =>
  bits(value) > maxBits + 4 || (value < 0n ? -value : value).toString().length > maxDigits
    ? fail(`The result has more than ${maxDigits.toLocaleString('en')} digits.`)
    : value;

/** a op b: whole numbers stay whole (and exact) while they can, anything else is a Decimal. */
function apply(op: string, a: Value, b: Value): Value {
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    if (op === '+') return checked(a + b);
    if (op === '-') return checked(a - b);
    if (op === '*') return checked(a * b);
    if (op === '%') return a % b;
    if (a % b === 0n) return a / b;
  }
  const [x, y] = [decimal(a), decimal(b)];
  return op === '+'
    ? x.plus(y)
    : op === '-'
      ? x.minus(y)
      : op === '*'
        ? x.times(y)
        : op === '/'
          ? x.dividedBy(y)
          : x.modulo(y);
}

function power(base: Value, exponent: Value): Value {
  const whole =
    typeof exponent === 'bigint' ? exponent : exponent.isInteger() ? BigInt(exponent.toFixed()) : null;
  if (whole === null || whole > 1000n || whole < -1000n)
    fail('Exponents must be whole numbers from -1000 to 1000.');
  const n = Number(whole);
  if (isZero(base) && n < 0) fail('Division by zero.');
  if (typeof base === 'bigint' && n >= 0) {
    if ((bits(base) - 1) * n > maxBits)
      fail(`The result has more than ${maxDigits.toLocaleString('en')} digits.`);
    return checked(base ** BigInt(n));
  }
  const value = decimal(base).pow(n);
  if (!value.isFinite()) fail('The result is too large.');
  if (value.isZero() && !isZero(base)) fail('The result is too small.');
  return value;
}

/**
 * Exact arithmetic: + − × ÷ ^ % (remainder), parentheses, unary minus; whole numbers as BigInts, the
 * rest as decimals. A hand-written recursive-descent parser: nothing typed is ever evaluated as code.
 */
export function calculate(input: string): Value {
  const text = input.trim().replace(/=\s*$/, '');
  let position = 0;

  const peek = () => {
    while (/\s/.test(text[position] ?? '')) position += 1;
    const char = text[position];
    return char === undefined ? undefined : (operators[char] ?? char);
  };
  const unexpected = (): never => {
    const char = text[position];
    return char === undefined
      ? fail('The expression ends too early.')
      : fail(`Unexpected "${char}" at position ${position + 1}.`);
  };

  const number = (): Value => {
    const match = /^\d+(\.\d+)?|^\.\d+/.exec(text.slice(position));
    if (!match) return unexpected();
    position += match[0].length;
    return match[0].includes('.') ? new Exact(match[0]) : checked(BigInt(match[0]));
  };
  const primary = (): Value => {
    if (peek() === '(') {
      position += 1;
      const value = expression();
      if (peek() !== ')') return peek() === undefined ? fail('A ")" is missing.') : unexpected();
      position += 1;
      return value;
    }
    return number();
  };
  const powered = (): Value => {
    const base = primary();
    if (peek() !== '^') return base;
    position += 1;
    return power(base, unary());
  };
  const unary = (): Value => {
    const sign = peek();
    if (sign === '-' || sign === '+') {
      position += 1;
      const value = unary();
      if (sign === '+') return value;
      return typeof value === 'bigint' ? -value : value.negated();
    }
    return powered();
  };
  const term = (): Value => {
    let value = unary();
    for (let op = peek(); op === '*' || op === '/' || op === '%'; op = peek()) {
      position += 1;
      const right = unary();
      if ((op === '/' || op === '%') && isZero(right)) fail('Division by zero.');
      value = apply(op, value, right);
    }
    return value;
  };
  function expression(): Value {
    let value = term();
    for (let op = peek(); op === '+' || op === '-'; op = peek()) {
      position += 1;
      value = apply(op, value, term());
    }
    return value;
  }

  if (!text) fail('Type an expression, for example (1.5 + 2) × 4.');
  const result = expression();
  if (peek() !== undefined) unexpected();
  return result;
}

/** Digits shown of a decimal unless all of them are asked for. */
export const shownDigits = 15;
/** An endless result (1/3) asked for exactly: this many digits, then an ellipsis. */
const endlessDigits = 40;

/** A rounded result: its digits, with an exponent once they end before its point (no made-up zeros). */
const rounded = (result: Decimal, digits: number) => {
  const value = result.toSignificantDigits(digits);
  return value.abs().greaterThanOrEqualTo(new Exact(10).pow(digits))
    ? value.toExponential()
    : value.toFixed();
};

/**
 * A result for display. A whole number shows every digit, always. A decimal shows up to 15
 * significant digits, marked ≈ when rounded; asked `exact`, every digit of one that ends, or the
 * first 40 of one that does not, followed by an ellipsis.
 */
export function formatResult(result: Value, exact = false): { sign: '=' | '≈'; digits: string } {
  if (typeof result === 'bigint') return { sign: '=', digits: result.toString() };
  const ends = result.sd() < Exact.precision;
  if (ends && result.isInteger()) return { sign: '=', digits: result.toFixed() };
  if (!exact) {
    return result.sd() <= shownDigits
      ? { sign: '=', digits: result.toString() }
      : { sign: '≈', digits: rounded(result, shownDigits) };
  }
  return ends
    ? { sign: '=', digits: result.toFixed() }
    : { sign: '=', digits: `${rounded(result, endlessDigits)}…` };
}
