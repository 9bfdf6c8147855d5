import { ToolError } from '../types';

/** A required string argument of a tool call, or a ToolError the model can act on. */
export function stringArgument(args: Record<string, unknown>, name: string, tool: string): string {
  const value = args[name];
  if (typeof value !== 'string' || !value.trim())
    throw new ToolError(`${tool} needs the argument "${name}": a non-empty string.`);
  return value;
}

/** An optional string argument: undefined when absent or empty. */
export function optionalString(
  args: Record<string, unknown>,
  name: string,
  tool: string,
): string | undefined {
  const value = args[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new ToolError(`${tool}: the argument "${name}" must be a string.`);
  return value.trim() || undefined;
}
