import type { Db } from '../../db/database';
import { ApiError } from '../../errors';
import type { Secrets } from '../../security/secrets';
import type { ToolInfo } from '../types';
import type { ListedTool } from './client';

/** What reaching an organization's MCP servers needs beyond the database: unsealing tokens, the SSRF rule. */
export interface McpContext {
  secrets: Secrets;
  allowPrivate: boolean;
}

// Keyed by the app's database: several apps (nodes) in one process each keep their own.
const contexts = new WeakMap<Db, McpContext>();
let latest: McpContext | null = null;

/** Called once per app: the MCP calls made with its database unseal with its secrets. */
export function useMcpContext(db: Db, context: McpContext) {
  contexts.set(db, context);
  latest = context;
}

/** The context of the app whose database this is (a transaction's falls back to the last app started). */
export function mcpContextOf(db: Db): McpContext {
  const context = contexts.get(db) ?? latest;
  if (!context) throw new Error('MCP servers are not set up: the admin plugin registers them.');
  return context;
}

/**
 * The prefix of a server's tool names: its name lowercased, every run of characters outside [a-z0-9]
 * a `-`, trimmed of `-`, at most 24 characters. Letters with accents count as their base letter; a name
 * with no such character at all gives `mcp`.
 */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 24)
    .replace(/-+$/, '');
  return slug || 'mcp';
}

/** A tool's name as bots and models see it: `<slug>__<tool>`, in OpenAI's alphabet, at most 64 characters. */
export const exposedName = (slug: string, tool: string) =>
  `${slug}__${tool.replace(/[^a-zA-Z0-9_-]/g, '_')}`.slice(0, 64);

/** A kept tool with its exposed name; two that come out alike keep the first. */
export function exposedTools(slug: string, tools: ListedTool[]): (ListedTool & { exposed: string })[] {
  const seen = new Set<string>();
  return tools.flatMap((tool) => {
    const exposed = exposedName(slug, tool.name);
    if (seen.has(exposed)) return [];
    seen.add(exposed);
    return [{ ...tool, exposed }];
  });
}

export interface McpRow {
  id: string;
  tenant: string;
  name: string;
  slug: string;
  url: string;
  token: string | null;
  token_hint: string;
  tools: ListedTool[];
  error: string | null;
  updated_at: Date;
}

/** An MCP server as the admin area lists it; its token never more than its end ("••••1234"). */
export interface McpServer {
  _id: string;
  name: string;
  url: string;
  tools: { name: string; description: string }[];
  token: string | null;
  error?: string;
  updatedAt: string;
}

export const mcpColumns = 'id, tenant, name, slug, url, token, token_hint, tools, error, updated_at';

export const maskToken = (row: Pick<McpRow, 'token' | 'token_hint'>) =>
  row.token ? `••••${row.token_hint}` : null;

export function toMcpServer(row: McpRow): McpServer {
  return {
    _id: row.id,
    name: row.name,
    url: row.url,
    tools: exposedTools(row.slug, row.tools).map((tool) => ({
      name: tool.exposed,
      description: tool.description,
    })),
    token: maskToken(row),
    ...(row.error ? { error: row.error } : {}),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export const mcpNotFound = () => new ApiError(404, 'MCP server not found', 'NOT_FOUND');

export async function listMcpRows(db: Db, tenant: string): Promise<McpRow[]> {
  const { rows } = await db.query<McpRow>(
    `select ${mcpColumns} from mcp_servers where tenant = $1 order by lower(name), id`,
    [tenant],
  );
  return rows;
}

/** The organization's server; 404 for anyone else's or none. */
export async function readMcpRow(db: Db, tenant: string, id: string): Promise<McpRow> {
  const { rows } = await db.query<McpRow>(
    `select ${mcpColumns} from mcp_servers where id = $1 and tenant = $2`,
    [id, tenant],
  );
  if (!rows[0]) throw mcpNotFound();
  return rows[0];
}

/** Every tool of the organization's MCP servers, from their kept lists (no network). */
export async function mcpToolInfos(db: Db, tenant: string): Promise<ToolInfo[]> {
  const rows = await listMcpRows(db, tenant);
  return rows.flatMap((row) =>
    exposedTools(row.slug, row.tools).map((tool) => ({
      name: tool.exposed,
      description: tool.description,
      source: 'mcp' as const,
      server: { _id: row.id, name: row.name },
      parameters: tool.parameters,
    })),
  );
}

/** A bot whose tools changed because a server's did. */
export interface ChangedBot {
  _id: string;
  name: string;
}

/**
 * Renames or removes tool names in the organization's bots (`config.tools` and `config.askFirst`):
 * `rename` maps a name to its new one, or to null when the tool is gone. Answers the bots changed.
 */
export async function rewriteBotTools(
  db: Db,
  tenant: string,
  rename: (name: string) => string | null | undefined,
): Promise<ChangedBot[]> {
  const { rows } = await db.query<{ id: string; name: string; tools: unknown; ask_first: unknown }>(
    `select id, name, config->'tools' as tools, config->'askFirst' as ask_first from bots
     where tenant = $1 and (jsonb_typeof(config->'tools') = 'array' or jsonb_typeof(config->'askFirst') = 'array')
     order by position, name`,
    [tenant],
  );
  const changed: ChangedBot[] = [];
  const renamed = (list: unknown) => {
    const names = Array.isArray(list) ? list.filter((name): name is string => typeof name === 'string') : [];
    const after = names.flatMap((name) => {
      const next = rename(name);
      return next === undefined ? [name] : next === null ? [] : [next];
    });
    return {
      after,
      differs: after.length !== names.length || after.some((name, index) => name !== names[index]),
    };
  };
  for (const row of rows) {
    const tools = renamed(row.tools);
    const askFirst = renamed(row.ask_first);
    if (!tools.differs && !askFirst.differs) continue;
    await db.query(
      `update bots set config = config || jsonb_build_object('tools', $3::jsonb, 'askFirst', $4::jsonb)
       where id = $1 and tenant = $2`,
      [row.id, tenant, JSON.stringify(tools.after), JSON.stringify(askFirst.after)],
    );
    changed.push({ _id: row.id, name: row.name });
  }
  return changed;
}
