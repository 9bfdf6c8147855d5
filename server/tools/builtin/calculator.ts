import { ToolError } from '../types';
import { stringArgument } from './arguments';
import { CalculationError, calculate, formatResult } from './calculation';

/** The calculator bot's exact engine, for a model: `expression` → "expression = result". */
export async function calculatorTool(args: Record<string, unknown>): Promise<string> {
  const expression = stringArgument(args, 'expression', 'calculator');
  try {
    const { sign, digits } = formatResult(calculate(expression));
    return `${expression.trim()} ${sign} ${digits}`;
  } catch (error) {
    if (error instanceof CalculationError)
      throw new ToolError(`Cannot calculate ${expression}: ${error.message}`);
    throw error;
  }
}
