import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { audit } from '../../audit/store';
import { ApiError } from '../../errors';
import { keyHint, openProvider } from '../../providers/store';
import { cleanName, idParams, objectOf, successResponse, uniqueViolation } from '../../schemas';
import { checkProviderUrl, type providerFetch, RefusedAddress } from '../../security/outbound';
import { modelsOnProvider } from '../models/store';
import {
  activeBotsUsing,
  deleteProvider,
  insertProvider,
  listProviders,
  providerNotFound,
  readProvider,
  updateProvider,
} from './store';

const providerFields = {
  name: { type: 'string', minLength: 1, maxLength: 80 },
  baseUrl: { type: 'string', minLength: 1, maxLength: 500 },
  apiKey: { type: ['string', 'null'], maxLength: 1000 },
} as const;
const providerSchema = objectOf(
  {
    _id: { type: 'string' },
    name: { type: 'string' },
    baseUrl: { type: 'string' },
    apiKey: { type: ['string', 'null'], description: '••••, and its last four characters when long' },
    bots: { type: 'integer', description: 'how many bots name it' },
    createdAt: { type: 'string' },
  },
  ['_id', 'name', 'baseUrl', 'apiKey', 'bots', 'createdAt'],
);
const modelsSchema = objectOf({ models: { type: 'array', items: { type: 'string' } } }, ['models']);
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
export const providersPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
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

  app.get(
    '/provider',
    { schema: { response: { 200: { type: 'array', items: providerSchema } } } },
    (request) => listProviders(app.db, request.tenant),
  );

  app.post(
    '/provider',
    { schema: { body: objectOf(providerFields, ['name', 'baseUrl']), response: { 201: providerSchema } } },
    async (request, reply) => {
      const name = cleanName(request.body.name);
      const baseUrl = await checkedBaseUrl(request.body.baseUrl);
      const key = request.body.apiKey?.trim() || null;
      const id = await app.db
        .transaction(async (tx) => {
          const id = await insertProvider(tx, request.tenant, {
            name,
            baseUrl,
            sealedKey: key ? app.secrets.seal(key, request.tenant) : null,
            keyHint: key ? keyHint(key) : '',
          });
          await audit(tx, request, {
            action: 'provider.create',
            target: id,
            before: null,
            after: { name, baseUrl, apiKey: key ? `••••${keyHint(key)}` : null },
          });
          return id;
        })
        .catch((error) => {
          throw uniqueViolation(error) ? nameTaken() : error;
        });
      return reply.code(201).send(await readProvider(app.db, request.tenant, id));
    },
  );

  app.patch(
    '/provider/:id',
    {
      schema: { params: idParams, body: objectOf(providerFields, [], 1), response: { 200: providerSchema } },
    },
    async (request) => {
      const before = await readProvider(app.db, request.tenant, request.params.id);
      const name = request.body.name === undefined ? null : cleanName(request.body.name);
      const baseUrl = request.body.baseUrl === undefined ? null : await checkedBaseUrl(request.body.baseUrl);
      const keyGiven = request.body.apiKey !== undefined;
      const key = request.body.apiKey?.trim() || null;
      await app.db
        .transaction(async (tx) => {
          await updateProvider(tx, request.tenant, before._id, {
            name,
            baseUrl,
            keyGiven,
            sealedKey: key ? app.secrets.seal(key, request.tenant) : null,
            keyHint: key ? keyHint(key) : '',
          });
          const after = await readProvider(tx, request.tenant, before._id);
          await audit(tx, request, {
            action: 'provider.update',
            target: before._id,
            before: { name: before.name, baseUrl: before.baseUrl, apiKey: before.apiKey },
            after: { name: after.name, baseUrl: after.baseUrl, apiKey: after.apiKey },
          });
        })
        .catch((error) => {
          throw uniqueViolation(error) ? nameTaken() : error;
        });
      // Bots using it answer through its new address from their next reply.
      await app.botCatalogue.forget(request.tenant);
      return readProvider(app.db, request.tenant, before._id);
    },
  );

  app.delete(
    '/provider/:id',
    { schema: { params: idParams, response: { 200: successResponse } } },
    async (request) => {
      const before = await readProvider(app.db, request.tenant, request.params.id);
      await app.db.transaction(async (tx) => {
        const using = await activeBotsUsing(tx, request.tenant, before._id);
        if (using.length) {
          throw new ApiError(
            409,
            `Active bots use this provider: ${using.join(', ')}. Retire them or move them to another provider first.`,
            'PROVIDER_IN_USE',
          );
        }
        const models = await modelsOnProvider(tx, request.tenant, before._id);
        if (models.length)
          throw new ApiError(
            409,
            `Models of the catalogue run on this provider: ${models.join(', ')}. Remove them or move them to another provider first.`,
            'PROVIDER_IN_USE',
          );
        await deleteProvider(tx, request.tenant, before._id);
        await audit(tx, request, {
          action: 'provider.delete',
          target: before._id,
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
  app.get(
    '/provider/server',
    { schema: { response: { 200: objectOf({ configured: { type: 'boolean' } }, ['configured']) } } },
    async () => ({ configured: Boolean(app.config.openai.baseUrl) }),
  );

  app.get('/provider/server/models', { schema: { response: { 200: modelsSchema } } }, async () => {
    const { baseUrl, apiKey } = app.config.openai;
    if (!baseUrl)
      throw new ApiError(
        404,
        'The server has no provider of its own (OPENAI_BASE_URL is not set): choose a provider.',
        'PROVIDER_NOT_CONFIGURED',
      );
    return modelsOf({ baseUrl: baseUrl.replace(/\/+$/, ''), apiKey, send: fetch });
  });

  app.get(
    '/provider/:id/models',
    { schema: { params: idParams, response: { 200: modelsSchema } } },
    async (request) => {
      const provider = await openProvider(app, request.tenant, request.params.id);
      if (!provider) throw providerNotFound();
      return modelsOf(provider);
    },
  );
};
