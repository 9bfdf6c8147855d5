import type { FastifyPluginAsync } from 'fastify';
import { insufficientBalance } from '../billing/charge';
import { ApiError } from '../errors';
import { builtinProvider } from './providers/builtin';
import { openaiProvider } from './providers/openai';
import type { Provider, Turn } from './providers/types';
import { generateReply, storeUserMessage } from './reply';
import { createTopic, deleteTopic, listTopics, readTopic, renameTopic, topicNotFound } from './topics';

const idParams = { type: 'object', properties: { id: { type: 'string', maxLength: 64 } } } as const;

/** Topics and their messages; a message's reply streams back as server-sent events. */
export const chatPlugin: FastifyPluginAsync = async (app) => {
  const providers: Record<string, Provider> = {
    builtin: builtinProvider(app.translator, app.config.builtinTokenDelayMs),
    openai: openaiProvider(app.config.openai),
  };
  // One reply at a time per topic, so the conversation keeps its order.
  const replying = new Set<string>();
  const owner = (request: { auth: { userId: string; tenant: string } }) => ({
    tenant: request.auth.tenant,
    userId: request.auth.userId,
  });

  app.addHook('preHandler', app.authenticate);

  app.get('/api/v1/topic', async (request) => listTopics(app.db, owner(request)));

  app.post<{ Body: { bot: string } }>(
    '/api/v1/topic',
    {
      schema: {
        body: {
          type: 'object',
          required: ['bot'],
          additionalProperties: false,
          properties: { bot: { type: 'string', minLength: 1, maxLength: 64 } },
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createTopic(app.db, owner(request), request.body.bot)),
  );

  app.get<{ Params: { id: string } }>(
    '/api/v1/topic/:id',
    { schema: { params: idParams } },
    async (request) => readTopic(app.db, owner(request), request.params.id),
  );

  app.patch<{ Params: { id: string }; Body: { title: string } }>(
    '/api/v1/topic/:id',
    {
      schema: {
        params: idParams,
        body: {
          type: 'object',
          required: ['title'],
          additionalProperties: false,
          properties: { title: { type: 'string', minLength: 1, maxLength: 200 } },
        },
      },
    },
    async (request) => {
      const title = request.body.title.replace(/\s+/g, ' ').trim();
      if (!title) throw new ApiError(400, 'Please fill in title.', 'INVALID_INPUT');
      return renameTopic(app.db, owner(request), request.params.id, title);
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/api/v1/topic/:id',
    { schema: { params: idParams } },
    async (request) => {
      await deleteTopic(app.db, owner(request), request.params.id);
      return { success: true };
    },
  );

  app.post<{ Params: { id: string }; Body: { text: string } }>(
    '/api/v1/topic/:id/message',
    {
      schema: {
        params: idParams,
        body: {
          type: 'object',
          required: ['text'],
          additionalProperties: false,
          properties: { text: { type: 'string', minLength: 1, maxLength: 8000 } },
        },
      },
    },
    async (request, reply) => {
      const who = owner(request);
      const topicId = request.params.id;
      const text = request.body.text.trim();
      if (!text) throw new ApiError(400, 'Please fill in text.', 'INVALID_INPUT');
      // One query for the topic, its bot and whether the balance can pay: the first token waits on it.
      const { rows } = await app.db.query<{
        name: string;
        price: string;
        active: boolean;
        platform: string;
        config: Record<string, unknown>;
        can_pay: boolean;
      }>(
        `select b.name, b.price, b.active, b.platform, b.config, u.balance >= b.price as can_pay
         from topics t join bots b on b.id = t.bot_id join users u on u.id = t.user_id
         where t.id = $1 and t.tenant = $2 and t.user_id = $3`,
        [topicId, who.tenant, who.userId],
      );
      const bot = rows[0];
      if (!bot) throw topicNotFound();
      const provider = providers[bot.platform];
      if (!bot.active || !provider)
        throw new ApiError(409, 'This bot is not available right now.', 'BOT_INACTIVE');
      const price = Number(bot.price);
      if (!bot.can_pay) throw insufficientBalance();
      if (replying.has(topicId)) {
        throw new ApiError(
          409,
          'A reply is still being written in this conversation. Wait for it or stop it.',
          'REPLY_IN_PROGRESS',
        );
      }
      replying.add(topicId);

      try {
        const { rows: history } = await app.db.query<Turn>(
          'select role, text from messages where topic_id = $1 order by seq',
          [topicId],
        );
        const userMessageId = await storeUserMessage(app.db, topicId, text);

        const abort = new AbortController();
        reply.hijack();
        const raw = reply.raw;
        raw.writeHead(200, {
          ...(reply.getHeaders() as Record<string, string>),
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache, no-transform',
          connection: 'keep-alive',
          'x-accel-buffering': 'no',
        });
        // The client went away before the end: stop generating.
        raw.on('close', () => {
          if (!raw.writableEnded) abort.abort();
        });
        const send = (event: string, data: unknown) => {
          if (!raw.writableEnded && !raw.destroyed)
            raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
        };
        send('message', { userMessageId });
        await generateReply(
          {
            db: app.db,
            owner: who,
            topicId,
            bot: { name: bot.name, price, config: bot.config },
            history,
            text,
            provider,
            signal: abort.signal,
            log: request.log,
            send,
          },
          userMessageId,
        );
        raw.end();
      } finally {
        replying.delete(topicId);
      }
    },
  );
};
