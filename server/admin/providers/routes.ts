import type { FastifyPluginAsync } from 'fastify';
import { audit } from '../../audit/store';
import { ApiError } from '../../errors';
import { keyHint, openProvider, type ProviderRow, providerColumns, toProvider } from '../../providers/store';
import { cleanName, idParams, objectOf, uniqueViolation } from '../../schemas';
import { checkProviderUrl, type providerFetch, RefusedAddress } from '../../security/outbound';

const providerFields = {
  name: { type: 'string', minLength: 1, maxLength: 80 },
  baseUrl: { type: 'string', minLength: 1, maxLength: 500 },
  apiKey: { type: ['string', 'null'], maxLength: 1000 },
};
const providerNotFound = () => new ApiError(404, 'Provider not found', 'NOT_FOUND');
const nameTaken = () => new ApiError(409, 'A provider with this name exists already.', 'NAME_TAKEN', 'name');

/**
 * A private base URL refused, with the way forward: a model server on the operator's own machine or
 * network (Ollama, vLLM…) is connected by the operator, as the server's own provider or by allowing
 * private addresses.
 */
const privateAddress = (host: string, baseUrl: string) =>
  new ApiError(
    400,
    `The address ${host} is on this machine or a private network, which an organization's providers may not use. ` +
      `A model server there is connected by the operator: start Parley with OPENAI_BASE_URL=${baseUrl} ` +
      "(then bots use it as the server's own provider), or with ALLOW_PRIVATE_PROVIDER_URLS=true to let " +
      'organizations add private addresses.',
    'URL_NOT_ALLOWED',
    'baseUrl',
  );

interface Reach {
  baseUrl: string;
  apiKey: string | undefined;
  send: (url: string, init: Parameters<typeof providerFetch>[1]) => Promise<Response>;
}

/** The model ids a provider's `GET /models` lists (OpenAI's wire format), sorted and each once. */
async function modelsOf({ baseUrl, apiKey, send }: Reach): Promise<{ models: string[] }> {
  let response: Response;
  try {
    response = await send(`${baseUrl}/models`, {
      method: 'GET',
      headers: {
        accept: 'application/json',
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    if (error instanceof RefusedAddress || (error as { cause?: unknown }).cause instanceof RefusedAddress)
      throw privateAddress(new URL(baseUrl).hostname, baseUrl);
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
    throw new ApiError(502, 'The provider sent a model list that cannot be read.', 'PROVIDER_BAD_RESPONSE');
  const models = body.data
    .map((model) => model?.id)
    .filter((id): id is string => typeof id === 'string' && id.length > 0 && id.length <= 200);
  return { models: [...new Set(models)].sort() };
}

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
      if (error instanceof RefusedAddress) throw privateAddress(error.host, value.trim());
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

  // The server's own provider (OPENAI_BASE_URL), which bots naming no provider use: set by the operator,
  // so it may be on this machine. Whether there is one, and its model list.
  app.get('/provider/server', async () => ({ configured: Boolean(app.config.openai.baseUrl) }));

  app.get('/provider/server/models', async () => {
    const { baseUrl, apiKey } = app.config.openai;
    if (!baseUrl)
      throw new ApiError(
        404,
        'The server has no provider of its own (OPENAI_BASE_URL is not set): choose a provider.',
        'PROVIDER_NOT_CONFIGURED',
      );
    return modelsOf({ baseUrl: baseUrl.replace(/\/+$/, ''), apiKey, send: fetch });
  });

  app.get<{ Params: { id: string } }>(
    '/provider/:id/models',
    { schema: { params: idParams } },
    async (request) => {
      const provider = await openProvider(app, request.tenant, request.params.id);
      if (!provider) throw providerNotFound();
      return modelsOf(provider);
    },
  );
};
