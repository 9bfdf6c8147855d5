import type { Db } from '../../db/database';
import { ToolError, type ToolInfo } from '../types';

// Placeholder until the MCP servers' module is merged: no organization has any.
export async function listMcpToolsForOrg(_db: Db, _orgId: string): Promise<ToolInfo[]> {
  return [];
}

export async function callMcpTool(
  _db: Db,
  _orgId: string,
  _name: string,
  _args: unknown,
  _signal: AbortSignal,
): Promise<string> {
  throw new ToolError('MCP servers are not configured');
}
