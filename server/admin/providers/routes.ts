import type { FastifyPluginAsync } from 'fastify';
import { ApiError } from '../../errors';
import { checkProviderUrl, RefusedAddress } from '../../security/outbound';
import { audit } from '../audit/store';
import { cleanName, idParams, objectOf, uniqueViolation } from '../schemas';
import { keyHint, openProvider, type ProviderRow, providerColumns, toProvider } from './store';

const providerFields = {
  name: { type: 'string', minLength: 1, maxLength: 80 },
  baseUrl: { type: 'string', minLength: 1, maxLength: 500 },
  apiKey: { type: ['string', 'null'], maxLength: 1000 },
};
const providerNotFound = () => new ApiError(404, 'Provider not found', 'NOT_FOUND');
const nameTaken = () => new ApiError(409, 'A provider with this name exists already.', 'NAME_TAKEN', 'name');

/**
 * OpenAI-compatible providers of the organization: list (keys masked), add, change, delete (refused
 * while active bots use one) and their model list. Keys are sealed at rest and never leave the
 * server; base URLs on private networks are refused unless ALLOW_PRIVATE_PROVIDER_URLS=true.
 */
export const providersPlugin: FastifyPluginAsync = async (app) => {
  const allowPrivate = app.config.allowPrivateProviderUrls;

  /** The base URL without trailing slashes, when its scheme and every address it resolves to are allowed. */
  async function checkedBaseUrl(value: string): Promise<string> {
    try {
      const url = await checkProviderUrl(value.trim(), allowPrivate);
      return url.href.replace(/\/+$/, '');
    } catch (error) {
      if (error instanceof RefusedAddress)
        throw new ApiError(400, error.message, 'URL_NOT_ALLOWED', 'baseUrl');
      throw new ApiError(400, (error as Error).message, 'INVALID_URL', 'baseUrl');
    }
  }

  async function readProvider(tenant: string, id: string) {
    const { rows } = await app.db.query<ProviderRow>(
      `select ${providerColumns} from providers p where p.id = $1 and p.tenant = $2`,
      [id, tenant],
    );
    if (!rows[0]) throw providerNotFound();
    return toProvider(rows[0]);
  }

  app.get('/provider', async (request) => {
    const { rows } = await app.db.query<ProviderRow>(
      `select ${providerColumns} from providers p where p.tenant = $1 order by lower(p.name), p.id`,
      [request.tenant],
    );
    return rows.map(toProvider);
  });

  app.post<{ Body: { name: string; baseUrl: string; apiKey?: string | null } }>(
    '/provider',
    { schema: { body: objectOf(providerFields, ['name', 'baseUrl']) } },
    async (request, reply) => {
      const name = cleanName(request.body.name);
      const baseUrl = await checkedBaseUrl(request.body.baseUrl);
      const key = request.body.apiKey?.trim() || null;
      const id = await app.db
        .transaction(async (tx) => {
          const { rows } = await tx.query<{ id: string }>(
            `insert into providers (tenant, name, base_url, api_key, key_hint) values ($1, $2, $3, $4, $5) returning id`,
            [
              request.tenant,
              name,
              baseUrl,
              key ? app.secrets.seal(key, request.tenant) : null,
              key ? keyHint(key) : '',
            ],
          );
          await audit(tx, request, {
            action: 'provider.create',
            target: rows[0].id,
            before: null,
            after: { name, baseUrl, apiKey: key ? `••••${keyHint(key)}` : null },
          });
          return rows[0].id;
        })
        .catch((error) => {
          throw uniqueViolation(error) ? nameTaken() : error;
        });
      return reply.code(201).send(await readProvider(request.tenant, id));
    },
  );

  app.patch<{ Params: { id: string }; Body: { name?: string; baseUrl?: string; apiKey?: string | null } }>(
    '/provider/:id',
    { schema: { params: idParams, body: objectOf(providerFields, [], 1) } },
    async (request) => {
      const before = await readProvider(request.tenant, request.params.id);
      const name = request.body.name === undefined ? null : cleanName(request.body.name);
      const baseUrl = request.body.baseUrl === undefined ? null : await checkedBaseUrl(request.body.baseUrl);
      const keyGiven = request.body.apiKey !== undefined;
      const key = request.body.apiKey?.trim() || null;
      await app.db
        .transaction(async (tx) => {
          await tx.query(
            `update providers set name = coalesce($3, name), base_url = coalesce($4, base_url),
               api_key = case when $5 then $6 else api_key end, key_hint = case when $5 then $7 else key_hint end
             where id = $1 and tenant = $2`,
            [
              request.params.id,
              request.tenant,
              name,
              baseUrl,
              keyGiven,
              key ? app.secrets.seal(key, request.tenant) : null,
              key ? keyHint(key) : '',
            ],
          );
          const after = await readProviderIn(tx, request.tenant, request.params.id);
          await audit(tx, request, {
            action: 'provider.update',
            target: request.params.id,
            before: { name: before.name, baseUrl: before.baseUrl, apiKey: before.apiKey },
            after,
          });
        })
        .catch((error) => {
          throw uniqueViolation(error) ? nameTaken() : error;
        });
      // Bots using it answer through its new address from their next reply.
      await app.botCatalogue.forget(request.tenant);
      return readProvider(request.tenant, request.params.id);
    },
  );

  async function readProviderIn(tx: typeof app.db, tenant: string, id: string) {
    const { rows } = await tx.query<ProviderRow>(
      `select ${providerColumns} from providers p where p.id = $1 and p.tenant = $2`,
      [id, tenant],
    );
    const { name, baseUrl, apiKey } = toProvider(rows[0]);
    return { name, baseUrl, apiKey };
  }

  app.delete<{ Params: { id: string } }>(
    '/provider/:id',
    { schema: { params: idParams } },
    async (request) => {
      const before = await readProvider(request.tenant, request.params.id);
      await app.db.transaction(async (tx) => {
        const { rows } = await tx.query<{ name: string }>(
          `select name from bots where tenant = $1 and active and config->>'provider' = $2 order by name`,
          [request.tenant, request.params.id],
        );
        if (rows.length) {
          throw new ApiError(
            409,
            `Active bots use this provider: ${rows.map((row) => row.name).join(', ')}. Retire them or move them to another provider first.`,
            'PROVIDER_IN_USE',
          );
        }
        // Retired bots forget it: they cannot run without it anyway.
        await tx.query(
          `update bots set config = config - 'provider' where tenant = $1 and config->>'provider' = $2`,
          [request.tenant, request.params.id],
        );
        await tx.query('delete from providers where id = $1 and tenant = $2', [
          request.params.id,
          request.tenant,
        ]);
        await audit(tx, request, {
          action: 'provider.delete',
          target: request.params.id,
          before: { name: before.name, baseUrl: before.baseUrl, apiKey: before.apiKey },
          after: null,
        });
      });
      await app.botCatalogue.forget(request.tenant);
      return { success: true };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/provider/:id/models',
    { schema: { params: idParams } },
    async (request) => {
      const provider = await openProvider(app, request.tenant, request.params.id);
      if (!provider) throw providerNotFound();
      let response: Response;
      try {
        response = await provider.send(`${provider.baseUrl}/models`, {
          method: 'GET',
          headers: {
            accept: 'application/json',
            ...(provider.apiKey ? { authorization: `Bearer ${provider.apiKey}` } : {}),
          },
          signal: AbortSignal.timeout(10_000),
        });
      } catch (error) {
        if (error instanceof RefusedAddress || (error as { cause?: unknown }).cause instanceof RefusedAddress)
          throw new ApiError(
            400,
            new RefusedAddress(new URL(provider.baseUrl).hostname).message,
            'URL_NOT_ALLOWED',
            'baseUrl',
          );
        throw new ApiError(502, 'The provider cannot be reached.', 'PROVIDER_UNREACHABLE');
      }
      const body = (await response.json().catch(() => null)) as {
        data?: { id?: unknown }[];
        error?: { message?: string };
      } | null;
      if (!response.ok) {
        const reason = body?.error?.message ? `: ${String(body.error.message).slice(0, 200)}` : '';
        throw new ApiError(
          502,
          `The provider refused the request (HTTP ${response.status})${reason}`,
          'PROVIDER_ERROR',
        );
      }
      if (!Array.isArray(body?.data))
        throw new ApiError(
          502,
          'The provider sent a model list that cannot be read.',
          'PROVIDER_BAD_RESPONSE',
        );
      const models = body.data
        .map((model) => model?.id)
        .filter((id): id is string => typeof id === 'string' && id.length > 0 && id.length <= 200);
      return { models: [...new Set(models)].sort() };
    },
  );
};
