import { CalculationError, calculate, formatResult, shownDigits } from '../../tools/builtin/calculation';

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
