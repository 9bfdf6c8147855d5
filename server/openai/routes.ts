import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { canRun } from '../bots/availability';
import { knowledgeOf } from '../bots/config';
import { ApiError, notFound } from '../errors';
import { passageRoom } from '../files/prompt';
import { retrieve } from '../knowledge/retrieval';
import type { Owner } from '../owner';
import { type Knowledge, ProviderError, type Turn } from '../providers/types';
import { repeat } from '../repeat';
import { librarianPassages } from '../replies/engines/librarian';
import { retryIn } from '../security/counters';
import { toolsForBot } from '../tools/registry';
import { replyTools } from '../tools/run';
import {
  apiAccessOff,
  invalidApiKey,
  invalidRequest,
  modelAmbiguous,
  modelNotFound,
  OpenAiError,
  serverError,
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
  releaseCall,
  renewCall,
  renewMs,
  reserveCall,
  revokeKey,
  settleCall,
  storeConversation,
  usableBots,
} from './store';

const keySchema = {
  type: 'object',
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

/**
 * The member's personal API keys: `GET, POST /api/v1/user/me/key` (list; create `{ name, expiresAt? }`
 * → `{ _id, key }` and the listed fields, the key shown this once) and `DELETE /api/v1/user/me/key/:id`
 * (revoke, at once on every node: each API request reads its key from the database). While the
 * organization has API access off, listing and creating answer 403 with a sentence the Profile panel
 * shows (members have no other way to learn the setting); revoking still works.
 */
export const apiKeysPlugin: FastifyPluginAsync = async (app) => {
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

  app.post<{ Body: { name: string; expiresAt?: string | null } }>(
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

  app.delete<{ Params: { id: string } }>(
    '/api/v1/user/me/key/:id',
    {
      schema: {
        params: { type: 'object', properties: { id: { type: 'string', maxLength: 64 } } },
      },
    },
    async (request) => {
      if (!(await revokeKey(app.db, request.auth, request.params.id))) throw notFound('API key');
      return { revoked: true };
    },
  );
};

interface ChatMessage {
  role: string;
  content?: unknown;
}

interface CompletionBody {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  store?: boolean;
  stream_options?: { include_usage?: boolean } | null;
}

/** A rough count of tokens (about four characters each): the built-in bots and the providers report none. */
export const estimateTokens = (text: string) => (text ? Math.max(1, Math.ceil(text.length / 4)) : 0);

/** The text of a message's content: a string, or the text parts of an array (anything else is refused). */
function textOf(content: unknown, index: number): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (Array.isArray(content)) {
    return content
      .map((part, at) => {
        const piece = part as { type?: unknown; text?: unknown };
        if (piece?.type === 'text' && typeof piece.text === 'string') return piece.text;
        throw invalidRequest(
          `Only text content is supported: messages[${index}].content[${at}] is of type ${String(piece?.type)}.`,
          `messages.${index}.content`,
        );
      })
      .join('\n');
  }
  throw invalidRequest(
    `messages[${index}].content must be a string or an array of text parts.`,
    `messages.${index}.content`,
  );
}

/**
 * The conversation as the bot is given it: the request's user and assistant turns (system and developer
 * messages are left out: the bot's own system prompt applies), the last a user's.
 */
function turnsOf(messages: ChatMessage[]): { history: Turn[]; text: string } {
  const turns: Turn[] = [];
  messages.forEach((message, index) => {
    if (message.role === 'system' || message.role === 'developer') return;
    if (message.role !== 'user' && message.role !== 'assistant')
      throw invalidRequest(
        `Unsupported role '${message.role}' in messages[${index}]: use system, user or assistant.`,
        `messages.${index}.role`,
      );
    const text = textOf(message.content, index);
    if (text.trim()) turns.push({ role: message.role === 'user' ? 'user' : 'bot', text });
  });
  const last = turns.pop();
  if (last?.role !== 'user')
    throw invalidRequest('The last message must be a user message with some text.', 'messages');
  return { history: turns, text: last.text };
}

/**
 * Parley's OpenAI-compatible API: `GET /v1/models` and `POST /v1/chat/completions` with a personal key
 * as the bearer. Every answer that is not a success is OpenAI's error JSON. A completion is reserved,
 * settled and limited like a chat reply; it is stored as a topic only with `store: true`. Registered
 * under the prefix `/v1`: its not-found handler answers OpenAI's JSON there only.
 */
export const openaiApiPlugin: FastifyPluginAsync = async (app) => {
  const perMinute = app.config.rateLimits.apiKeyPerMinute;
  const running = new Set<{ controller: AbortController; finished: Promise<unknown> }>();

  // Calls cut off by a crash: on the embedded database every running call lost its node at start-up;
  // on PostgreSQL, those whose lease ran out.
  await interruptCalls(app.db, !app.config.databaseUrl);
  repeat(app, leaseCheckMs, 'marking cut-off API calls', () => interruptCalls(app.db));
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

  app.get('/models', { config: openRoute }, async (request, reply) => {
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
  });

  app.post<{ Body: CompletionBody }>(
    '/chat/completions',
    {
      config: openRoute,
      bodyLimit: 1024 * 1024,
      schema: {
        body: {
          type: 'object',
          required: ['model', 'messages'],
          // OpenAI's other parameters (temperature, max_tokens, user, …) are accepted and ignored.
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
          },
        },
      },
    },
    async (request, reply) => {
      const holder = await holderOf(request, reply);
      const owner: Owner = { tenant: holder.tenant, userId: holder.userId };
      const body = request.body;
      const bot = await botNamed(owner, body.model);
      if (!bot.may_use)
        throw new OpenAiError(
          403,
          `${bot.name} is only for some groups of this organization, and you are in none of them.`,
          'permission_error',
          'model_not_allowed',
          'model',
        );
      const provider = app.botProviders[bot.platform];
      if (!provider || !canRun(app.config, bot))
        throw new OpenAiError(
          503,
          `${bot.name} is not available right now.`,
          'server_error',
          'model_not_available',
          'model',
        );
      if (!app.liveReplies.accepting)
        throw new OpenAiError(
          503,
          'This server is restarting. Try again in a moment.',
          'server_error',
          'shutting_down',
        );
      const { history, text } = turnsOf(body.messages);
      const promptText = body.messages.map((message, index) => textOf(message.content, index)).join('\n');

      // Reserved before the first token, as a chat reply: a call that cannot be paid never starts.
      const callId = await reserveCall(app.db, owner, {
        keyId: holder.keyId,
        botId: bot.id,
        price: Number(bot.price),
      });
      const controller = new AbortController();
      let settleRunning: (value?: unknown) => void = () => {};
      const entry = { controller, finished: new Promise((resolve) => (settleRunning = resolve)) };
      running.add(entry);
      const renewal = setInterval(() => {
        renewCall(app.db, callId).then(
          (mine) => {
            if (!mine) controller.abort();
          },
          (error) => request.log.warn({ err: error }, 'renewing an API call failed'),
        );
      }, renewMs);
      // The client leaving stops the bot: a stopped call costs nothing.
      const left = () => {
        if (!reply.raw.writableFinished) controller.abort();
      };
      reply.raw.on('close', left);
      const finish = () => {
        clearInterval(renewal);
        reply.raw.off('close', left);
        running.delete(entry);
        settleRunning();
      };

      const id = `chatcmpl-${callId.replaceAll('-', '')}`;
      const created = Math.floor(Date.now() / 1000);
      const chunk = (delta: object, finishReason: string | null, extra: object = {}) => ({
        id,
        object: 'chat.completion.chunk',
        created,
        model: bot.id,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
        ...extra,
      });
      const streaming = body.stream === true;
      let raw: FastifyReply['raw'] | null = null;
      const write = (data: unknown) => {
        if (raw && !raw.writableEnded && !raw.destroyed)
          raw.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
      };

      let answer = '';
      let free = false;
      try {
        const knowledge = await knowledgeFor(owner, bot, text);
        // The bot's tools apply; those that ask first are denied (nobody can approve them here).
        const tools = replyTools({
          db: app.db,
          owner: { tenant: holder.tenant, apiCallId: callId },
          bot: await toolsForBot(app, owner, bot),
          signal: controller.signal,
          approvals: false,
          log: request.log,
        });
        if (streaming) {
          reply.hijack();
          raw = reply.raw;
          raw.writeHead(200, {
            ...(reply.getHeaders() as Record<string, string>),
            'content-type': 'text/event-stream; charset=utf-8',
            'cache-control': 'no-cache, no-transform',
            connection: 'keep-alive',
            'x-accel-buffering': 'no',
            'x-parley-usage': 'estimated',
          });
          write(chunk({ role: 'assistant', content: '' }, null));
        }
        for await (const piece of provider({
          history,
          text,
          attachments: [],
          knowledge,
          config: bot.config,
          tenant: holder.tenant,
          signal: controller.signal,
          waive: () => {
            free = true;
          },
          tools,
        })) {
          answer += piece;
          if (streaming) write(chunk({ content: piece }, null));
        }
        if (controller.signal.aborted) {
          await releaseCall(app.db, owner, { callId, status: 'stopped' });
          if (streaming) raw?.end();
          throw new OpenAiError(499, 'The request was cancelled.', 'invalid_request_error', 'cancelled');
        }
        const usage = {
          prompt_tokens: estimateTokens(promptText),
          completion_tokens: estimateTokens(answer),
          total_tokens: 0,
        };
        usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
        const charged = await settleCall(app.db, owner, {
          callId,
          description: `Reply from ${bot.name} (API)`,
          free,
          promptTokens: usage.prompt_tokens,
          completionTokens: usage.completion_tokens,
        });
        if (!charged)
          throw new OpenAiError(
            500,
            'The reply was interrupted. Please try again.',
            'server_error',
            'interrupted',
          );
        if (body.store === true) {
          await storeConversation(app.db, owner, {
            callId,
            botId: bot.id,
            turns: [...history, { role: 'user', text }],
            answer,
            cost: charged.cost,
          });
        }
        if (streaming) {
          write(chunk({}, 'stop'));
          if (body.stream_options?.include_usage) {
            write({ id, object: 'chat.completion.chunk', created, model: bot.id, choices: [], usage });
          }
          write('[DONE]');
          raw?.end();
          return;
        }
        reply.header('x-parley-usage', 'estimated');
        return {
          id,
          object: 'chat.completion',
          created,
          model: bot.id,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: answer, refusal: null },
              logprobs: null,
              finish_reason: 'stop',
            },
          ],
          usage,
        };
      } catch (error) {
        await releaseCall(app.db, owner, {
          callId,
          status: controller.signal.aborted ? 'stopped' : 'failed',
        }).catch((failure) => request.log.error({ err: failure }, 'releasing an API call failed'));
        const failure =
          error instanceof ProviderError
            ? new OpenAiError(502, error.message, 'server_error', error.code.toLowerCase())
            : error instanceof OpenAiError || error instanceof ApiError
              ? toOpenAiError(error)
              : serverError();
        if (
          !(error instanceof ProviderError) &&
          !(error instanceof OpenAiError) &&
          !(error instanceof ApiError)
        )
          request.log.error({ err: error }, 'API completion failed');
        if (!raw) throw failure;
        // Headers already went: OpenAI's clients read an error event in the stream.
        write(failure.body);
        raw.end();
        return;
      } finally {
        finish();
      }
    },
  );

  /** The passages of the bot's knowledge bases that answer the question, as a chat reply gets them. */
  async function knowledgeFor(owner: Owner, bot: ApiBot, question: string): Promise<Knowledge | undefined> {
    const bases = knowledgeOf(bot.config);
    const librarian = bot.platform === 'builtin' && bot.config.engine === 'librarian';
    if (librarian) return retrieve(app, owner, { question, bases, documents: [], limit: librarianPassages });
    if (bot.platform === 'openai' && bases.length)
      return retrieve(app, owner, {
        question,
        bases,
        documents: [],
        limit: 5,
        room: passageRoom(bot.config),
      });
    return undefined;
  }
};
