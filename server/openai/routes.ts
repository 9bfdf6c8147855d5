import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { priceToHold } from '../billing/tokens';
import { canRun } from '../bots/availability';
import { ApiError, notFound } from '../errors';
import { modelsOfBot, pickModel, replyTokensOf, withModel } from '../models/store';
import type { Owner } from '../owner';
import { repeat } from '../repeat';
import { runnable } from '../replies/bots';
import { retryIn } from '../security/counters';
import { answerCompletion, type RunningCalls, turnsOf } from './completion';
import {
  apiAccessOff,
  invalidApiKey,
  modelAmbiguous,
  modelNotFound,
  modelRefused,
  OpenAiError,
  suspendedKeyHolder,
  toOpenAiError,
} from './errors';
import {
  type ApiBot,
  apiAccessOf,
  botById,
  createKey,
  interruptCalls,
  type KeyHolder,
  keyHolder,
  leaseCheckMs,
  listKeys,
  reserveCall,
  revokeKey,
  usableBots,
} from './store';

const keySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['_id', 'name', 'createdAt', 'expiresAt', 'lastUsedAt', 'last4'],
  properties: {
    _id: { type: 'string' },
    name: { type: 'string' },
    createdAt: { type: 'string' },
    expiresAt: { type: ['string', 'null'] },
    lastUsedAt: { type: ['string', 'null'] },
    last4: { type: 'string' },
  },
} as const;

const modelsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['object', 'data'],
  properties: {
    object: { type: 'string' },
    data: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'object', 'created', 'owned_by', 'name'],
        properties: {
          id: { type: 'string' },
          object: { type: 'string' },
          created: { type: 'number' },
          owned_by: { type: 'string' },
          name: { type: 'string' },
        },
      },
    },
  },
} as const;

const completionBody = {
  type: 'object',
  required: ['model', 'messages'],
  // OpenAI's other parameters (user, seed, …) are accepted and ignored.
  additionalProperties: true,
  properties: {
    model: { type: 'string', minLength: 1, maxLength: 200 },
    messages: {
      type: 'array',
      minItems: 1,
      maxItems: 1000,
      items: {
        type: 'object',
        required: ['role'],
        properties: { role: { type: 'string', maxLength: 32 } },
      },
    },
    stream: { type: ['boolean', 'null'] },
    store: { type: ['boolean', 'null'] },
    stream_options: {
      type: ['object', 'null'],
      properties: { include_usage: { type: ['boolean', 'null'] } },
    },
    temperature: { type: ['number', 'null'], minimum: 0, maximum: 2 },
    max_tokens: { type: ['integer', 'null'], minimum: 1, maximum: 10_000_000 },
    // Up to four sequences, as OpenAI takes them.
    stop: {
      anyOf: [
        { type: 'null' },
        { type: 'string', minLength: 1, maxLength: 200 },
        { type: 'array', maxItems: 4, items: { type: 'string', minLength: 1, maxLength: 200 } },
      ],
    },
  },
} as const;

const tokenCount = { type: 'integer' } as const;
/** A `chat.completion` (the streamed one is written as it goes: no schema). */
const completionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'object', 'created', 'model', 'choices', 'usage'],
  properties: {
    id: { type: 'string' },
    object: { type: 'string' },
    created: { type: 'integer' },
    model: { type: 'string' },
    choices: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['index', 'message', 'logprobs', 'finish_reason'],
        properties: {
          index: { type: 'integer' },
          message: {
            type: 'object',
            additionalProperties: false,
            required: ['role', 'content', 'refusal'],
            properties: {
              role: { type: 'string' },
              content: { type: 'string' },
              refusal: { type: 'null' },
            },
          },
          logprobs: { type: 'null' },
          finish_reason: { type: 'string' },
        },
      },
    },
    usage: {
      type: 'object',
      additionalProperties: false,
      required: ['prompt_tokens', 'completion_tokens', 'total_tokens'],
      properties: { prompt_tokens: tokenCount, completion_tokens: tokenCount, total_tokens: tokenCount },
    },
  },
} as const;

/**
 * The member's personal API keys: `GET, POST /api/v1/user/me/key` (list; create `{ name, expiresAt? }`
 * → `{ _id, key }` and the listed fields, the key shown this once) and `DELETE /api/v1/user/me/key/:id`
 * (revoke, at once on every node: each API request reads its key from the database). While the
 * organization has API access off, listing and creating answer 403 with a sentence the Profile panel
 * shows (members have no other way to learn the setting); revoking still works.
 */
export const apiKeysPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.addHook('preHandler', app.authenticate);

  const refuseWhenOff = async (request: FastifyRequest) => {
    if (!(await apiAccessOf(app.db, request.auth.tenant)))
      throw new ApiError(
        403,
        'API access is turned off for this organization. Ask an administrator of the organization.',
        'API_ACCESS_DISABLED',
      );
  };

  app.get(
    '/api/v1/user/me/key',
    {
      preHandler: refuseWhenOff,
      schema: { response: { 200: { type: 'array', items: keySchema } } },
    },
    async (request) => listKeys(app.db, request.auth),
  );

  app.post(
    '/api/v1/user/me/key',
    {
      preHandler: refuseWhenOff,
      schema: {
        body: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: {
            // Arrives RSA-encrypted (spec §7) and is decrypted before validation.
            name: { type: 'string', minLength: 1, maxLength: 80 },
            expiresAt: { type: ['string', 'null'], minLength: 10, maxLength: 40 },
          },
        },
        response: {
          200: {
            type: 'object',
            required: [...keySchema.required, 'key'],
            additionalProperties: false,
            properties: { ...keySchema.properties, key: { type: 'string' } },
          },
        },
      },
    },
    async (request) => {
      const name = request.body.name.replace(/\p{Cc}/gu, '').trim();
      if (!name) throw new ApiError(400, 'Please fill in name.', 'INVALID_INPUT', 'name');
      let expiresAt: Date | null = null;
      if (request.body.expiresAt) {
        // A date alone means the end of that day (UTC).
        const given = request.body.expiresAt;
        expiresAt = new Date(/^\d{4}-\d{2}-\d{2}$/.test(given) ? `${given}T23:59:59.999Z` : given);
        if (Number.isNaN(expiresAt.getTime()))
          throw new ApiError(400, 'expiresAt is not a date.', 'INVALID_INPUT', 'expiresAt');
        if (expiresAt.getTime() <= Date.now())
          throw new ApiError(400, 'Choose an expiry date in the future.', 'INVALID_INPUT', 'expiresAt');
      }
      return createKey(app.db, request.auth, name, expiresAt);
    },
  );

  app.delete(
    '/api/v1/user/me/key/:id',
    {
      schema: {
        params: { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 64 } } },
        response: {
          200: {
            type: 'object',
            additionalProperties: false,
            required: ['revoked'],
            properties: { revoked: { type: 'boolean' } },
          },
        },
      },
    },
    async (request) => {
      if (!(await revokeKey(app.db, request.auth, request.params.id))) throw notFound('API key');
      return { revoked: true };
    },
  );
};

/**
 * Parley's OpenAI-compatible API: `GET /v1/models` and `POST /v1/chat/completions` with a personal key
 * as the bearer. Every answer that is not a success is OpenAI's error JSON. A completion is reserved
 * here, then runs through the reply pipeline as a chat reply does (`answerCompletion`): settled,
 * released and limited alike; it is stored as a topic only with `store: true`. Registered
 * under the prefix `/v1`: its not-found handler answers OpenAI's JSON there only.
 */
export const openaiApiPlugin: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const perMinute = app.config.rateLimits.apiKeyPerMinute;
  const running: RunningCalls = new Set();

  // Calls cut off by a crash: on the embedded database every running call lost its node at start-up;
  // on PostgreSQL, those whose lease ran out.
  await interruptCalls(app.db, !app.config.databaseUrl);
  repeat(app, leaseCheckMs, 'marking cut-off API calls', () =>
    interruptCalls(
      app.db,
      false,
      [...running].map((call) => call.callId),
    ),
  );
  app.addHook('onClose', async () => {
    for (const call of running) call.controller.abort();
    await Promise.all([...running].map((call) => call.finished));
  });

  app.setErrorHandler((error, request, reply) => {
    const failure = toOpenAiError(error);
    if (failure.statusCode >= 500 && !(error instanceof OpenAiError))
      request.log.error({ err: error }, 'API request failed');
    return reply.code(failure.statusCode).send(failure.body);
  });
  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send(
        new OpenAiError(
          404,
          `Unknown request URL: ${request.method} ${request.url.split('?')[0]}.`,
          'invalid_request_error',
          'unknown_url',
        ).body,
      ),
  );

  /** The key's holder, allowed now and within their key's rate limit; else an OpenAI error. */
  async function holderOf(request: FastifyRequest, reply: FastifyReply): Promise<KeyHolder> {
    const [scheme, key] = (request.headers.authorization ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !key) throw invalidApiKey();
    const holder = await keyHolder(app.db, key.trim());
    if (!holder) throw invalidApiKey();
    if (holder.suspended) throw suspendedKeyHolder();
    if (holder.disabled)
      throw new OpenAiError(
        403,
        'This organization has been disabled.',
        'permission_error',
        'organization_disabled',
      );
    if (!holder.apiAccess) throw apiAccessOff();
    const [count] = await app.counters.hit([`api-key:${holder.keyId}`], 60);
    reply.header('x-ratelimit-limit-requests', perMinute);
    reply.header('x-ratelimit-remaining-requests', Math.max(0, perMinute - count.count));
    if (count.count > perMinute) {
      reply.header('retry-after', count.retryAfter);
      throw new OpenAiError(
        429,
        `Rate limit reached for this API key: ${perMinute} requests per minute. Try again ${retryIn(count.retryAfter)}.`,
        'requests',
        'rate_limit_exceeded',
      );
    }
    return holder;
  }

  const openRoute = { anyTenant: true, plainBody: true };

  /** The bots a key's holder may use that can answer now: what GET /v1/models lists. */
  const listedBots = async (owner: Owner) =>
    (await usableBots(app.db, owner)).filter((bot) => canRun(app.config, bot));

  /**
   * The bot a request's `model` names: a bot's id, or else the name of one of the bots GET /v1/models
   * lists, in any case. Names are unique only as written: two listed bots whose names differ only in
   * case are ambiguous (400) and are named by id.
   */
  async function botNamed(owner: Owner, model: string): Promise<ApiBot> {
    const byId = await botById(app.db, owner, model);
    if (byId) return byId;
    const wanted = model.toLowerCase();
    const named = (await listedBots(owner)).filter((bot) => bot.name.toLowerCase() === wanted);
    if (named.length > 1)
      throw modelAmbiguous(
        model,
        named.map((bot) => bot.id),
      );
    if (!named[0]) throw modelNotFound(model);
    return named[0];
  }

  app.get(
    '/models',
    { config: openRoute, schema: { response: { 200: modelsSchema } } },
    async (request, reply) => {
      const holder = await holderOf(request, reply);
      const bots = await listedBots({ tenant: holder.tenant, userId: holder.userId });
      return {
        object: 'list',
        data: bots.map((bot) => ({
          id: bot.id,
          object: 'model',
          created: Number(bot.created),
          owned_by: holder.tenant,
          name: bot.name,
        })),
      };
    },
  );

  app.post(
    '/chat/completions',
    {
      config: openRoute,
      bodyLimit: 1024 * 1024,
      schema: { body: completionBody, response: { 200: completionSchema } },
    },
    async (request, reply) => {
      const holder = await holderOf(request, reply);
      const owner: Owner = { tenant: holder.tenant, userId: holder.userId };
      const body = request.body;
      const bot = await botNamed(owner, body.model);
      // A bot with catalogue models answers on its default one.
      const model = pickModel(await modelsOfBot(app.db, bot.id), []);
      const run = runnable(app, { ...bot, config: withModel(bot.config, model) });
      if (run.refused) throw modelRefused(bot.name, run.refused, bot.retired);
      const { history, text } = turnsOf(body.messages);
      const stop = typeof body.stop === 'string' ? [body.stop] : (body.stop ?? undefined);
      const parameters = {
        ...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
        ...(typeof body.max_tokens === 'number' ? { maxTokens: body.max_tokens } : {}),
        ...(stop?.length ? { stop } : {}),
      };
      // Reserved before the first token, as a chat reply (a token-priced model's maximum): a call
      // that cannot be paid never starts.
      const callId = await reserveCall(app.db, owner, {
        keyId: holder.keyId,
        botId: bot.id,
        modelId: model?.id ?? null,
        price: priceToHold(bot.price, model, replyTokensOf(model, parameters) ?? 0),
      });
      const completion = {
        owner,
        callId,
        bot,
        model,
        parameters,
        provider: run.provider,
        history,
        text,
        stream: body.stream === true,
        store: body.store === true,
        includeUsage: body.stream_options?.include_usage === true,
      };
      return answerCompletion(app, request, reply, completion, running);
    },
  );
};
