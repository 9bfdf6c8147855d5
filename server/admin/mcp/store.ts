import type { Db } from '../../db/database';
import type { ListedTool } from '../../tools/mcp/client';
import type { ChangedBot, McpRow } from '../../tools/mcp/store';

/** The organization's bots that use a tool of each server, by server id. */
export async function botsUsing(db: Db, tenant: string, rows: McpRow[]): Promise<Map<string, ChangedBot[]>> {
  const { rows: bots } = await db.query<{ id: string; name: string; tools: unknown }>(
    `select id, name, config->'tools' as tools from bots
     where tenant = $1 and jsonb_typeof(config->'tools') = 'array' order by position, name`,
    [tenant],
  );
  return new Map(
    rows.map((row) => [
      row.id,
      bots
        .filter((bot) =>
          (bot.tools as unknown[]).some(
            (name) => typeof name === 'string' && name.startsWith(`${row.slug}__`),
          ),
        )
        .map((bot) => ({ _id: bot.id, name: bot.name })),
    ]),
  );
}

/** Whether another server of the organization (than `except`) has this slug. */
export async function slugInUse(db: Db, tenant: string, slug: string, except = ''): Promise<boolean> {
  const { rows } = await db.query('select 1 from mcp_servers where tenant = $1 and slug = $2 and id <> $3', [
    tenant,
    slug,
    except,
  ]);
  return rows.length > 0;
}

/** A server as stored: its token sealed already (or null: none), with the tools it listed. */
export interface McpServerInput {
  name: string;
  slug: string;
  url: string;
  sealedToken: string | null;
  tokenHint: string;
  tools: ListedTool[];
}

/** Adds a server (a taken slug is the unique violation it throws); answers it as stored. */
export async function insertMcpServer(db: Db, tenant: string, server: McpServerInput): Promise<McpRow> {
  const { rows } = await db.query<McpRow>(
    `insert into mcp_servers (tenant, name, slug, url, token, token_hint, tools)
     values ($1, $2, $3, $4, $5, $6, $7) returning *`,
    [
      tenant,
      server.name,
      server.slug,
      server.url,
      server.sealedToken,
      server.tokenHint,
      JSON.stringify(server.tools),
    ],
  );
  return rows[0];
}

/**
 * Changes a server, its last error cleared: its token only when `tokenGiven` (else the stored one
 * stays). Answers it as stored.
 */
export async function updateMcpServer(
  db: Db,
  tenant: string,
  id: string,
  server: McpServerInput & { tokenGiven: boolean },
): Promise<McpRow> {
  const { rows } = await db.query<McpRow>(
    `update mcp_servers set name = $3, slug = $4, url = $5,
       token = case when $6 then $7 else token end, token_hint = case when $6 then $8 else token_hint end,
       tools = $9, error = null, updated_at = now()
     where id = $1 and tenant = $2 returning *`,
    [
      id,
      tenant,
      server.name,
      server.slug,
      server.url,
      server.tokenGiven,
      server.sealedToken,
      server.tokenHint,
      JSON.stringify(server.tools),
    ],
  );
  return rows[0];
}

export async function deleteMcpServer(db: Db, tenant: string, id: string) {
  await db.query('delete from mcp_servers where id = $1 and tenant = $2', [id, tenant]);
}
