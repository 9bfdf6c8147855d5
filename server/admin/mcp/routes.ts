import type { FastifyPluginAsync } from 'fastify';
import { audit } from '../../audit/store';
import type { Db } from '../../db/database';
import { ApiError } from '../../errors';
import { keyHint } from '../../providers/store';
import { cleanName, idParams, objectOf, uniqueViolation } from '../../schemas';
import { checkProviderUrl, RefusedAddress } from '../../security/outbound';
import { builtinToolInfos } from '../../tools/builtin';
import { type ListedTool, listTools, McpFailure, refusedMessage } from '../../tools/mcp/client';
import {
  type ChangedBot,
  exposedTools,
  listMcpRows,
  type McpRow,
  maskToken,
  mcpToolInfos,
  readMcpRow,
  rewriteBotTools,
  slugOf,
  toMcpServer,
  useMcpContext,
} from '../../tools/mcp/store';

/** How long adding or changing a server waits for its tool list. */
export const listTimeoutMs = 10_000;

const serverFields = {
  name: { type: 'string', minLength: 1, maxLength: 80 },
  url: { type: 'string', minLength: 1, maxLength: 500 },
  token: { type: ['string', 'null'], maxLength: 2000 },
};
interface ServerInput {
  name: string;
  url: string;
  token?: string | null;
}

const slugTaken = () =>
  new ApiError(
    409,
    'A tool server with this name (or one that gives its tools the same names) exists already.',
    'NAME_TAKEN',
    'name',
  );

/** A server that could not be used, as the form shows it: at the URL or the token field. */
function failureAnswer(failure: McpFailure): ApiError {
  if (failure.kind === 'refused') return new ApiError(400, failure.message, 'URL_NOT_ALLOWED', 'url');
  const code =
    failure.kind === 'unauthorized'
      ? 'MCP_UNAUTHORIZED'
      : failure.kind === 'protocol'
        ? 'MCP_NOT_MCP'
        : 'MCP_UNREACHABLE';
  return new ApiError(422, failure.message, code, failure.field);
}

/** What the audit log keeps of a server: never its token, only its end. */
const settingsOf = (row: Pick<McpRow, 'name' | 'url' | 'token' | 'token_hint' | 'slug' | 'tools'>) => ({
  name: row.name,
  url: row.url,
  token: maskToken(row),
  tools: exposedTools(row.slug, row.tools).map((tool) => tool.exposed),
});

/** The organization's bots that use a tool of each server, by server id. */
async function botsUsing(db: Db, tenant: string, rows: McpRow[]): Promise<Map<string, ChangedBot[]>> {
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

/**
 * An organization's MCP servers (Streamable HTTP): list, add, change, remove; and every tool its bots
 * may use (`GET /tool`: the built-in ones, then each server's). Adding or changing a server reads its
 * tools through the official SDK client within 10 s, behind the providers' SSRF guard; a server that
 * cannot be read is refused with a 4xx and nothing is stored. Tokens are sealed and never leave.
 */
export const mcpAdminPlugin: FastifyPluginAsync = async (app) => {
  const allowPrivate = app.config.allowPrivateProviderUrls;
  useMcpContext(app.db, { secrets: app.secrets, allowPrivate });

  /** The URL as stored, when its scheme and every address it resolves to are allowed. */
  async function checkedUrl(value: string): Promise<string> {
    try {
      return (await checkProviderUrl(value.trim(), allowPrivate)).href;
    } catch (error) {
      if (error instanceof RefusedAddress)
        throw new ApiError(400, refusedMessage(error.host), 'URL_NOT_ALLOWED', 'url');
      throw new ApiError(400, (error as Error).message.replace('base URL', 'URL'), 'INVALID_URL', 'url');
    }
  }

  /** Refuses a slug another server of the organization has, before waiting on the network. */
  async function checkSlug(tenant: string, slug: string, except = '') {
    const { rows } = await app.db.query(
      'select 1 from mcp_servers where tenant = $1 and slug = $2 and id <> $3',
      [tenant, slug, except],
    );
    if (rows.length) throw slugTaken();
  }

  async function readTools(url: string, token: string | null): Promise<ListedTool[]> {
    try {
      return await listTools({ url, token, allowPrivate }, listTimeoutMs);
    } catch (error) {
      if (error instanceof McpFailure) throw failureAnswer(error);
      throw error;
    }
  }

  /** The server's saved token in clear, to read its tools again; 422 when it cannot be unsealed any more. */
  function savedToken(row: McpRow): string | null {
    if (!row.token) return null;
    try {
      return app.secrets.unseal(row.token, row.tenant);
    } catch {
      throw new ApiError(
        422,
        'The saved token cannot be read any more (the server’s secret changed). Enter it again.',
        'TOKEN_UNREADABLE',
        'token',
      );
    }
  }

  const sealed = (token: string | null, tenant: string) => (token ? app.secrets.seal(token, tenant) : null);

  app.get('/mcp', async (request) => {
    const rows = await listMcpRows(app.db, request.tenant);
    const using = await botsUsing(app.db, request.tenant, rows);
    return rows.map((row) => ({ ...toMcpServer(row), bots: using.get(row.id) ?? [] }));
  });

  app.post<{ Body: ServerInput }>(
    '/mcp',
    { schema: { body: objectOf(serverFields, ['name', 'url']) } },
    async (request, reply) => {
      const { tenant } = request;
      const name = cleanName(request.body.name);
      const slug = slugOf(name);
      const url = await checkedUrl(request.body.url);
      const token = request.body.token?.trim() || null;
      await checkSlug(tenant, slug);
      const tools = await readTools(url, token);
      const row = await app.db
        .transaction(async (tx) => {
          const { rows } = await tx.query<McpRow>(
            `insert into mcp_servers (tenant, name, slug, url, token, token_hint, tools)
             values ($1, $2, $3, $4, $5, $6, $7) returning *`,
            [
              tenant,
              name,
              slug,
              url,
              sealed(token, tenant),
              token ? keyHint(token) : '',
              JSON.stringify(tools),
            ],
          );
          await audit(tx, request, {
            action: 'mcp.create',
            target: rows[0].id,
            before: null,
            after: settingsOf(rows[0]),
          });
          return rows[0];
        })
        .catch((error) => {
          throw uniqueViolation(error) ? slugTaken() : error;
        });
      return reply.code(201).send({ ...toMcpServer(row), bots: [] });
    },
  );

  app.patch<{ Params: { id: string }; Body: Partial<ServerInput> }>(
    '/mcp/:id',
    { schema: { params: idParams, body: objectOf(serverFields, [], 1) } },
    async (request) => {
      const { tenant } = request;
      const before = await readMcpRow(app.db, tenant, request.params.id);
      const name = request.body.name === undefined ? before.name : cleanName(request.body.name);
      const slug = slugOf(name);
      const url = request.body.url === undefined ? before.url : await checkedUrl(request.body.url);
      const tokenGiven = request.body.token !== undefined;
      const token = tokenGiven ? request.body.token?.trim() || null : savedToken(before);
      if (slug !== before.slug) await checkSlug(tenant, slug, before.id);
      const tools = await readTools(url, token);
      // Bots keep the tools still there, under their names after a rename; the others are taken away.
      const now = new Map(exposedTools(slug, tools).map((tool) => [tool.name, tool.exposed]));
      const renamed = new Map(
        exposedTools(before.slug, before.tools).map((tool) => [tool.exposed, now.get(tool.name) ?? null]),
      );
      const { row, bots } = await app.db
        .transaction(async (tx) => {
          const { rows } = await tx.query<McpRow>(
            `update mcp_servers set name = $3, slug = $4, url = $5,
               token = case when $6 then $7 else token end, token_hint = case when $6 then $8 else token_hint end,
               tools = $9, error = null, updated_at = now()
             where id = $1 and tenant = $2 returning *`,
            [
              before.id,
              tenant,
              name,
              slug,
              url,
              tokenGiven,
              sealed(token, tenant),
              token ? keyHint(token) : '',
              JSON.stringify(tools),
            ],
          );
          const bots = await rewriteBotTools(tx, tenant, (tool) =>
            renamed.has(tool) ? renamed.get(tool) : undefined,
          );
          await audit(tx, request, {
            action: 'mcp.update',
            target: before.id,
            before: settingsOf(before),
            after: { ...settingsOf(rows[0]), ...(bots.length ? { botsChanged: bots } : {}) },
          });
          return { row: rows[0], bots };
        })
        .catch((error) => {
          throw uniqueViolation(error) ? slugTaken() : error;
        });
      if (bots.length) await app.botCatalogue.forget(tenant);
      const using = await botsUsing(app.db, tenant, [row]);
      return { ...toMcpServer(row), bots: using.get(row.id) ?? [], botsChanged: bots };
    },
  );

  app.delete<{ Params: { id: string } }>('/mcp/:id', { schema: { params: idParams } }, async (request) => {
    const { tenant } = request;
    const before = await readMcpRow(app.db, tenant, request.params.id);
    const prefix = `${before.slug}__`;
    const bots = await app.db.transaction(async (tx) => {
      const changed = await rewriteBotTools(tx, tenant, (tool) =>
        tool.startsWith(prefix) ? null : undefined,
      );
      await tx.query('delete from mcp_servers where id = $1 and tenant = $2', [before.id, tenant]);
      await audit(tx, request, {
        action: 'mcp.delete',
        target: before.id,
        before: settingsOf(before),
        after: changed.length ? { botsChanged: changed } : null,
      });
      return changed;
    });
    if (bots.length) await app.botCatalogue.forget(tenant);
    const message = bots.length
      ? `Its tools were removed from ${bots.map((bot) => bot.name).join(', ')}.`
      : 'No bot used its tools.';
    return { success: true, bots, message };
  });

  /** Every tool the organization's bots may use: the built-in ones first, then each server's. */
  app.get('/tool', async (request) => {
    const tools = [...builtinToolInfos, ...(await mcpToolInfos(app.db, request.tenant))];
    return tools.map(({ name, description, source, server }) => ({
      name,
      description,
      source,
      ...(server ? { server } : {}),
    }));
  });
};
