import type { Db } from '../../db/database';
import { ToolError, type ToolInfo } from '../types';
import { callTool, McpFailure } from './client';
import { exposedTools, type McpRow, mcpContextOf, mcpToolInfos } from './store';

/** How long one tool call may take, connecting included. */
export const callTimeoutMs = 20_000;

/** The tools of the organization's MCP servers, from the lists kept when each was added or changed (no network). */
export function listMcpToolsForOrg(db: Db, orgId: string): Promise<ToolInfo[]> {
  return mcpToolInfos(db, orgId);
}

/** What the model (and the user) read when a server could not be used. */
function failureText(server: string, kind: McpFailure['kind']): string {
  if (kind === 'unauthorized') return `The tool server ${server} refused Parley's token.`;
  if (kind === 'refused')
    return `The tool server ${server} is on a private network, which tools may not reach.`;
  if (kind === 'protocol') return `The tool server ${server} did not answer as an MCP server.`;
  return `The tool server ${server} did not answer.`;
}

/** Notes on the server whether the last call reached it (only when that changes: calls stay cheap). */
async function noteReach(db: Db, row: McpRow, error: string | null) {
  await db
    .query('update mcp_servers set error = $3 where id = $1 and tenant = $2 and error is distinct from $3', [
      row.id,
      row.tenant,
      error,
    ])
    .catch(() => {});
}

/**
 * Calls the tool `name` (`<slug>__<tool>`) of one of the organization's MCP servers with `args`, over
 * Streamable HTTP with the server's token, within 20 s and behind the SSRF guard; `signal` stops it.
 * Answers the tool's text content joined. Throws ToolError with a readable message when the tool is
 * unknown, the server marks the result as an error, or the server cannot be reached in time.
 */
export async function callMcpTool(
  db: Db,
  orgId: string,
  name: string,
  args: unknown,
  signal: AbortSignal,
): Promise<string> {
  const slug = name.split('__')[0];
  const { rows } = await db.query<McpRow>(
    'select id, tenant, name, slug, url, token, token_hint, tools, error, updated_at from mcp_servers where tenant = $1 and slug = $2',
    [orgId, slug],
  );
  const row = rows[0];
  const tool = row && exposedTools(row.slug, row.tools).find((listed) => listed.exposed === name);
  if (!row || !tool) throw new ToolError(`There is no tool named ${name}.`);
  if (signal.aborted) throw new ToolError('The call was stopped.');
  const { secrets, allowPrivate } = mcpContextOf(db);
  let token: string | null = null;
  try {
    token = row.token ? secrets.unseal(row.token, orgId) : null;
  } catch {
    throw new ToolError(
      `The token of the tool server ${row.name} cannot be read; an admin must enter it again.`,
    );
  }
  const input =
    args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  try {
    const answer = await callTool(
      { url: row.url, token, allowPrivate },
      tool.name,
      input,
      callTimeoutMs,
      signal,
    );
    await noteReach(db, row, null);
    if (answer.isError) throw new ToolError(answer.text || `The tool ${name} failed.`);
    return answer.text;
  } catch (error) {
    if (error instanceof ToolError) throw error;
    if (error instanceof McpFailure && error.kind === 'stopped') throw new ToolError(error.message);
    const reason = error instanceof McpFailure ? error.message : String(error);
    await noteReach(db, row, reason);
    throw new ToolError(failureText(row.name, error instanceof McpFailure ? error.kind : 'unreachable'));
  }
}
