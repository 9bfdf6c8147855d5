import type { FastifyPluginAsync } from 'fastify';
import { ApiError } from '../errors';
import { repeat } from '../repeat';
import { exportFileName, topicMarkdown } from './export';
import { builtinProvider } from './providers/builtin';
import { openaiProvider } from './providers/openai';
import type { Provider, Turn } from './providers/types';
import { generateReply } from './reply';
import {
  insufficientBalance,
  interruptOrphans,
  leaseSeconds,
  replyInProgress,
  startReply,
} from './replyStore';
import {
  createTopic,
  deleteTopic,
  listTopics,
  pageTopics,
  readTopic,
  renameTopic,
  searchTopics,
  topicNotFound,
} from './topics';

const idParams = { type: 'object', properties: { id: { type: 'string', maxLength: 64 } } } as const;

/** Topics and their messages; a message's reply streams back as server-sent events. */
export const chatPlugin: FastifyPluginAsync = async (app) => {
  const providers: Record<string, Provider> = {
    builtin: builtinProvider(app.translator, app.config.builtinTokenDelayMs),
    openai: openaiProvider(app.config.openai),
  };
  const owner = (request: { auth: { userId: string; tenant: string } }) => ({
    tenant: request.auth.tenant,
    userId: request.auth.userId,
  });

  app.addHook('preHandler', app.authenticate);

  // Replies cut off by a crash: the embedded database has one process, so at start-up every reply
  // still streaming lost its writer; on PostgreSQL other nodes may be writing theirs, so only
  // expired leases count, then and from now on.
  const cutOff = await interruptOrphans(app.db, !app.config.databaseUrl);
  if (cutOff) app.log.warn({ replies: cutOff }, 'replies cut off by a restart marked interrupted');
  repeat(app, (leaseSeconds * 1000) / 2, 'marking cut-off replies', () => interruptOrphans(app.db));

  // The original call answers an array; with `cursor` or `q` (even empty) it answers `{ items, next }`.
  app.get<{ Querystring: { q?: string; cursor?: string; limit?: string } }>(
    '/api/v1/topic',
    {
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            q: { type: 'string', maxLength: 200 },
            cursor: { type: 'string', maxLength: 200 },
            // 1 to 100; query values are strings (types are not coerced).
            limit: { type: 'string', pattern: '^([1-9][0-9]?|100)$' },
          },
        },
      },
    },
    async (request) => {
      const { q, cursor } = request.query;
      const limit = Number(request.query.limit ?? 30);
      if (q?.trim()) return searchTopics(app.db, owner(request), { q, cursor: cursor ?? '', limit });
      if (q !== undefined || cursor !== undefined)
        return pageTopics(app.db, owner(request), { cursor: cursor ?? '', limit });
      return listTopics(app.db, owner(request));
    },
  );

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

  app.get<{ Params: { id: string }; Querystring: { format?: 'md' | 'json' } }>(
    '/api/v1/topic/:id/export',
    {
      schema: {
        params: idParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { format: { type: 'string', enum: ['md', 'json'] } },
        },
      },
    },
    async (request, reply) => {
      const topic = await readTopic(app.db, owner(request), request.params.id);
      const format = request.query.format ?? 'md';
      reply
        .header('content-disposition', `attachment; filename="${exportFileName(topic, format)}"`)
        .header('cache-control', 'no-store');
      if (format === 'json') return reply.type('application/json; charset=utf-8').send(topic);
      return reply.type('text/markdown; charset=utf-8').send(topicMarkdown(topic));
    },
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
      // One query for the topic, its bot and whether the credit can pay: the first token waits on it.
      const { rows } = await app.db.query<{
        name: string;
        price: string;
        active: boolean;
        platform: string;
        config: Record<string, unknown>;
        can_pay: boolean;
        busy: boolean;
      }>(
        `select b.name, b.price, b.active, b.platform, b.config, u.balance - u.reserved >= b.price as can_pay,
                exists (select 1 from messages m where m.topic_id = t.id and m.status = 'streaming') as busy
         from topics t join bots b on b.id = t.bot_id join users u on u.id = t.user_id
         where t.id = $1 and t.tenant = $2 and t.user_id = $3`,
        [topicId, who.tenant, who.userId],
      );
      const bot = rows[0];
      if (!bot) throw topicNotFound();
      const provider = providers[bot.platform];
      if (!bot.active || !provider)
        throw new ApiError(409, 'This bot is not available right now.', 'BOT_INACTIVE');
      if (!bot.can_pay) throw insufficientBalance();
      if (bot.busy) throw replyInProgress();
      const { rows: history } = await app.db.query<Turn>(
        "select role, text from messages where topic_id = $1 and status <> 'streaming' and text <> '' order by seq",
        [topicId],
      );
      // Reserved before the first token: a reply that cannot be paid never starts.
      const started = await startReply(app.db, who, { topicId, text, price: Number(bot.price) });

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
      send('message', { userMessageId: started.userMessageId });
      await generateReply(
        {
          db: app.db,
          owner: who,
          topicId,
          bot: { name: bot.name, config: bot.config },
          history,
          text,
          provider,
          signal: abort.signal,
          log: request.log,
          send,
        },
        started,
      );
      raw.end();
    },
  );
};
