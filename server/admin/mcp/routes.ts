import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { audit } from '../../audit/store';
import { ApiError } from '../../errors';
import { keyHint } from '../../providers/store';
import { cleanName, idParams, objectOf, uniqueViolation } from '../../schemas';
import { checkProviderUrl, RefusedAddress } from '../../security/outbound';
import { builtinToolInfos } from '../../tools/builtin';
import { type ListedTool, listTools, McpFailure, refusedMessage } from '../../tools/mcp/client';
import {
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
import { botsUsing, deleteMcpServer, insertMcpServer, slugInUse, updateMcpServer } from './store';

/** How long adding or changing a server waits for its tool list. */
export const listTimeoutMs = 10_000;

const serverFields = {
  name: { type: 'string', minLength: 1, maxLength: 80 },
  url: { type: 'string', minLength: 1, maxLength: 500 },
  token: { type: ['string', 'null'], maxLength: 2000 },
} as const;

const namedSchema = objectOf({ _id: { type: 'string' }, name: { type: 'string' } }, ['_id', 'name']);
const botsSchema = { type: 'array', items: namedSchema } as const;
const serverProperties = {
  _id: { type: 'string' },
  name: { type: 'string' },
  url: { type: 'string' },
  tools: {
    type: 'array',
    items: objectOf({ name: { type: 'string' }, description: { type: 'string' } }, ['name', 'description']),
  },
  token: { type: ['string', 'null'], description: '••••, and its last four characters when long' },
  error: { type: 'string', description: 'why the last call could not reach it, until one does' },
  updatedAt: { type: 'string' },
  bots: { ...botsSchema, description: 'the bots that use one of its tools' },
} as const;
const serverRequired = ['_id', 'name', 'url', 'tools', 'token', 'updatedAt', 'bots'] as const;
const serverSchema = objectOf(serverProperties, serverRequired);

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

/**
 * An organization's MCP servers (Streamable HTTP): list, add, change, remove; and every tool its bots
 * may use (`GET /tool`: the built-in ones, then each server's). Adding or changing a server reads its
 * tools through the official SDK client within 10 s, behind the providers' SSRF guard; a server that
 * cannot be read is refused with a 4xx and nothing is stored. Tokens are sealed and never leave.
 */
export const mcpAdminPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
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
    if (await slugInUse(app.db, tenant, slug, except)) throw slugTaken();
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

  app.get(
    '/mcp',
    { schema: { response: { 200: { type: 'array', items: serverSchema } } } },
    async (request) => {
      const rows = await listMcpRows(app.db, request.tenant);
      const using = await botsUsing(app.db, request.tenant, rows);
      return rows.map((row) => ({ ...toMcpServer(row), bots: using.get(row.id) ?? [] }));
    },
  );

  app.post(
    '/mcp',
    { schema: { body: objectOf(serverFields, ['name', 'url']), response: { 201: serverSchema } } },
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
          const row = await insertMcpServer(tx, tenant, {
            name,
            slug,
            url,
            sealedToken: sealed(token, tenant),
            tokenHint: token ? keyHint(token) : '',
            tools,
          });
          await audit(tx, request, {
            action: 'mcp.create',
            target: row.id,
            before: null,
            after: settingsOf(row),
          });
          return row;
        })
        .catch((error) => {
          throw uniqueViolation(error) ? slugTaken() : error;
        });
      return reply.code(201).send({ ...toMcpServer(row), bots: [] });
    },
  );

  app.patch(
    '/mcp/:id',
    {
      schema: {
        params: idParams,
        body: objectOf(serverFields, [], 1),
        response: {
          200: objectOf(
            {
              ...serverProperties,
              botsChanged: { ...botsSchema, description: 'the bots whose tools changed' },
            },
            [...serverRequired, 'botsChanged'],
          ),
        },
      },
    },
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
          const row = await updateMcpServer(tx, tenant, before.id, {
            name,
            slug,
            url,
            tokenGiven,
            sealedToken: sealed(token, tenant),
            tokenHint: token ? keyHint(token) : '',
            tools,
          });
          const bots = await rewriteBotTools(tx, tenant, (tool) =>
            renamed.has(tool) ? renamed.get(tool) : undefined,
          );
          await audit(tx, request, {
            action: 'mcp.update',
            target: before.id,
            before: settingsOf(before),
            after: { ...settingsOf(row), ...(bots.length ? { botsChanged: bots } : {}) },
          });
          return { row, bots };
        })
        .catch((error) => {
          throw uniqueViolation(error) ? slugTaken() : error;
        });
      if (bots.length) await app.botCatalogue.forget(tenant);
      const using = await botsUsing(app.db, tenant, [row]);
      return { ...toMcpServer(row), bots: using.get(row.id) ?? [], botsChanged: bots };
    },
  );

  app.delete(
    '/mcp/:id',
    {
      schema: {
        params: idParams,
        response: {
          200: objectOf(
            {
              success: { type: 'boolean' },
              bots: { ...botsSchema, description: 'the bots its tools were taken from' },
              message: { type: 'string' },
            },
            ['success', 'bots', 'message'],
          ),
        },
      },
    },
    async (request) => {
      const { tenant } = request;
      const before = await readMcpRow(app.db, tenant, request.params.id);
      const prefix = `${before.slug}__`;
      const bots = await app.db.transaction(async (tx) => {
        const changed = await rewriteBotTools(tx, tenant, (tool) =>
          tool.startsWith(prefix) ? null : undefined,
        );
        await deleteMcpServer(tx, tenant, before.id);
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
    },
  );

  /** Every tool the organization's bots may use: the built-in ones first, then each server's. */
  app.get(
    '/tool',
    {
      schema: {
        response: {
          200: {
            type: 'array',
            items: objectOf(
              {
                name: { type: 'string' },
                description: { type: 'string' },
                source: { type: 'string', enum: ['builtin', 'mcp'] },
                server: namedSchema,
              },
              ['name', 'description', 'source'],
            ),
          },
        },
      },
    },
    async (request) => {
      const tools = [...builtinToolInfos, ...(await mcpToolInfos(app.db, request.tenant))];
      return tools.map(({ name, description, source, server }) => ({
        name,
        description,
        source,
        ...(server ? { server } : {}),
      }));
    },
  );
};
