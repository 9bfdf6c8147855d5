/** A tool a bot may be given, as the admin area lists it. */
export interface ToolInfo {
  name: string;
  description: string;
  source: 'builtin' | 'mcp';
  server?: { _id: string; name: string };
  parameters: Record<string, unknown>;
}
/** A tool that failed: its message is what the model (and the user) read. */
export class ToolError extends Error {}
